"""Axonal registry service: registered models and their versions, artifact and dataset
versions with their lineage, the component hub, and prompts."""
