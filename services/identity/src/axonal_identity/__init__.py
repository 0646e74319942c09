"""Axonal identity service: organisations, projects and access."""
