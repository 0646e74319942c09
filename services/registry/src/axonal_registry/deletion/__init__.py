"""Deletion: a deleted project's models, lineage and prompts, and a deleted run's lineage, go."""
