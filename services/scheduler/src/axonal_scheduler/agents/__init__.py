"""Agents, known by their heartbeats: an agent silent for three intervals is lost, and the
runs it had started fail."""
