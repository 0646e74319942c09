"""Axonal HTTP API: REST /api/v1 over the bus."""

VERSION = "0.1.0"
