"""The evaluation service: datasets and their versioned items, experiments (dataset runs),
score configs, evaluators (LLM judges and code) with their rules and jobs, annotation queues
and the LLM connections judges call."""
