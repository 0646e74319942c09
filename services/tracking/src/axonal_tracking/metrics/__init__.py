"""Metrics: the runs heard of, their points stored once per (run, name, step), read back as
downsampled series and latest values."""
