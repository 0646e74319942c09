"""Axonal agent: executes runs of its queues (local processes)."""
