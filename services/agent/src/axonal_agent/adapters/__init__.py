"""Implementations of the agent's ports."""
