"""Axonal identity service: projects, their API keys, and the audit trail of every event."""
