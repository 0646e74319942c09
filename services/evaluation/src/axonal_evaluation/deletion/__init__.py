"""Deletion: a deleted project's datasets, evaluators, queues, score configs and LLM
connections go, and what referred to a deleted trace."""
