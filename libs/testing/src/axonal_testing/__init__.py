"""Pytest plugin with real NATS, PostgreSQL, S3 and stack fixtures."""
