"""A project's quotas: concurrent runs, ingest rates and storage, enforced by other services."""
