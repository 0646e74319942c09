"""NATS users for trusted integrations: publish their own events straight onto the bus.

An outside system that may skip the HTTP endpoint gets a NATS user allowed exactly this:
publish on ``<ns>.ext.<source>.>`` (the EVENTS stream stores it; a type never starts with
``axonal.``, see :mod:`axonal_events.external`) and receive on its own inbox prefix (where
JetStream's acknowledgements come back). It can neither read the bus nor publish anything
else. :func:`nats_user` is the entry for the ``users`` list of the platform's account in the
nats-server configuration; the password is an environment variable the server reads.
"""

from __future__ import annotations

import json
import re
from typing import Any

from axonal_events.subjects import Subjects

__all__ = ["integration_inbox", "integration_permissions", "nats_user", "password_variable"]


def integration_inbox(subjects: Subjects, source: str) -> str:
    """The inbox prefix the integration's client connects with (``inbox_prefix=``)."""
    return subjects.inbox_prefix(f"ext-{source}")


def integration_permissions(subjects: Subjects, source: str) -> dict[str, Any]:
    """The NATS permissions of ``source``'s user."""
    return {
        "publish": {"allow": [subjects.externals(source)]},
        "subscribe": {"allow": [f"{integration_inbox(subjects, source)}.>"]},
    }


def password_variable(source: str) -> str:
    """The environment variable holding the user's password on the server."""
    return "AXONAL_EXT_" + re.sub(r"[^A-Z0-9]", "_", source.upper()) + "_PASSWORD"


def nats_user(subjects: Subjects, source: str) -> str:
    """The user's entry in NATS configuration syntax (the password read from the server's
    environment, so the file holds no secret)."""
    permissions = json.dumps(integration_permissions(subjects, source))
    return (
        f'{{user: "ext-{source}", password: ${password_variable(source)}, '
        f"permissions: {permissions}}}"
    )
