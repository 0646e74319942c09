"""The component hub: versioned polyaxonfile components (``owner/name:tag``) pushed over RPC,
the built-in ones seeded read-only, and what a ``hubRef`` resolves to."""
