"""Runs' log lines: stored once as agents send them, read a page at a time (``logs`` RPC)."""
