"""Pure execution rules: no I/O."""
