"""LLM model prices: a project's own model definitions (the ``models`` table), priced before
the ones shipped with Axonal, which cost generations as their traces are ingested."""
