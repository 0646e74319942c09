"""The tracking service: metric points from runs, stored once, queried as series."""
