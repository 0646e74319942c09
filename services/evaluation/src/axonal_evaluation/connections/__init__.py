"""LLM connections: a project's provider credentials (encrypted) that judges call with."""
