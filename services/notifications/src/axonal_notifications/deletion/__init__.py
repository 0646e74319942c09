"""Deletion: a deleted project's webhooks, connections and alert routes go, their deliveries
with them."""
