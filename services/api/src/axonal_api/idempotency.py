"""Retries of a create with the same ``Idempotency-Key`` get the same run, on any replica.

The run uuid and the submit command's id are derived from the project and the key (UUIDv5),
so the api keeps no state: a retry publishes the same command id, which JetStream (its
``Nats-Msg-Id``) and then the scheduler's inbox keep from being applied twice.
"""

from __future__ import annotations

import uuid

from axonal_events import uuid7

__all__ = ["submit_ids"]

_NAMESPACE = uuid.UUID("7d0b8c5e-3f1a-5b2e-9c4d-61a0f2e8b3d7")


def submit_ids(owner: str, project: str, key: str | None) -> tuple[str, str]:
    """The run uuid (hex) and command id for a create; fresh ones when there is no key."""
    if key is None:
        return uuid.uuid4().hex, str(uuid7())
    name = f"{owner}/{project}/{key}"
    return uuid.uuid5(_NAMESPACE, name).hex, str(uuid.uuid5(_NAMESPACE, f"{name}/submit"))
