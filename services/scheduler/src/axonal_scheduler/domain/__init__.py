"""Pure scheduling rules: no I/O."""
