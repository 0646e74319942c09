"""Pure identity rules: no I/O."""
