"""Projects: created and listed over RPC; ``project.created`` leaves through the outbox."""
