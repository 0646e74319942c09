"""Runs: submitted, scheduled on queues, reported on by agents, acted on, tracked from the SDK;
their status history, DAG and matrix children. Only the scheduler decides a run's status."""
