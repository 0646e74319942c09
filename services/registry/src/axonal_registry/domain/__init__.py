"""Pure registry logic: no I/O, none of the service's other modules."""
