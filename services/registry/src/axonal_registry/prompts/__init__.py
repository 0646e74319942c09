"""Prompts: versions of named text and chat templates with labels, Langfuse's prompt model;
``prompt.version.created`` and ``prompt.labels.changed`` leave through the outbox."""
