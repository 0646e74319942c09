"""Webhook subscriptions: a URL of a project, the events it wants, the secret that signs them."""
