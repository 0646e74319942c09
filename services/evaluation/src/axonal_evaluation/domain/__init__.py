"""Pure evaluation logic: no I/O, unit-tested."""
