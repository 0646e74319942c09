"""Deletion: a deleted project's studies go, their trials with them."""
