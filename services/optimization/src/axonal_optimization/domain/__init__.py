"""Pure logic: search spaces as Optuna distributions, samplers, Hyperband brackets."""
