"""Axonal identity service: projects and the audit trail of every event."""

from axonal_identity.app import DEFINITION

__all__ = ["DEFINITION"]
