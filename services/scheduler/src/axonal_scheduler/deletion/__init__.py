"""Deletion: a deleted project's runs, logs and automations, and a deleted run's rows, go."""
