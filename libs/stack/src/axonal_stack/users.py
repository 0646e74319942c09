"""The NATS users of an embedded stack: one per service, ``admin`` and ``run``.

Their passwords are made once per home and kept in ``nats-users.json`` (readable by its owner
only); the stack's ``nats.conf`` lists them with the permissions of
:mod:`axonal_events.access`. The supervisor connects as ``admin``, each service as itself,
runs as ``run``; ``axonal status`` and the test helpers read the admin password from the home.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from axonal_events import Subjects
from axonal_events.access import ADMIN_USER, all_permissions

__all__ = ["admin_url", "read_passwords", "with_credentials"]


def read_passwords(path: Path, subjects: Subjects) -> dict[str, str]:
    """User -> password for every user of ``subjects``'s bus; new users get a new password
    (the file is rewritten, readable by its owner only), known ones keep theirs."""
    known: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
    wanted = {
        user: known.get(user) or secrets.token_urlsafe(24) for user in all_permissions(subjects)
    }
    if wanted != known:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(wanted, out, indent=2, sort_keys=True)
        partial.replace(path)
    return wanted


def with_credentials(url: str, user: str, password: str) -> str:
    """``url`` with ``user:password@`` (nats-py and the status probe read them there); each
    URL of a comma-separated list (a cluster's nodes) gets them."""
    return ",".join(_with_credentials(one.strip(), user, password) for one in url.split(","))


def _with_credentials(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}"
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def admin_url(path: Path, url: str) -> str:
    """``url`` as the stack's admin, whose password ``path`` keeps (``url`` as it is when the
    stack made no users: it runs against a NATS of someone else's)."""
    if not path.exists():
        return url
    passwords: dict[str, str] = json.loads(path.read_text())
    return with_credentials(url, ADMIN_USER, passwords[ADMIN_USER])
