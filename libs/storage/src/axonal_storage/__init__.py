"""Artifact stores for Axonal: local filesystem and S3."""
