"""Axonal tracking service: metric points of runs and their alert rules, artifact records and
lineage, LLM traces with their observations and scores, and the LLM model prices they are
costed with."""
