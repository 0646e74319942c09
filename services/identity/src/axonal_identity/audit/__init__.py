"""The audit log: every event of the namespace, recorded once."""
