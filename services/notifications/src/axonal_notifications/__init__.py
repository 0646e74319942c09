"""The notifications service: webhook subscriptions, signed deliveries, retries, replay."""
