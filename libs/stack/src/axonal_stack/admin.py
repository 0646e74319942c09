"""The stack's first administrator: its name, password and token, made once per home.

``AXONAL_ADMIN_PASSWORD`` and ``AXONAL_ADMIN_TOKEN`` give them instead of generating them.
They are kept in ``$AXONAL_HOME/admin.json`` (readable by its owner only), passed to the
identity service, which creates the superuser, and read by the CLI and the SDK on this machine
to call the local stack's api.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["AdminCredentials", "admin_credentials", "admin_env"]

ADMIN_NAME = "admin"
_TOKEN_PREFIX = "axt_"  # noqa: S105 - a prefix, not a secret


@dataclass(frozen=True)
class AdminCredentials:
    username: str
    password: str
    token: str


def admin_credentials(home: Path) -> tuple[AdminCredentials, bool]:
    """The home's administrator, and whether it was made just now."""
    path = home / "admin.json"
    if path.exists():
        doc = json.loads(path.read_text())
        return AdminCredentials(doc["username"], doc["password"], doc["token"]), False
    made = AdminCredentials(
        ADMIN_NAME,
        os.environ.get("AXONAL_ADMIN_PASSWORD") or secrets.token_urlsafe(12),
        os.environ.get("AXONAL_ADMIN_TOKEN") or _TOKEN_PREFIX + secrets.token_urlsafe(32),
    )
    home.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first
        return admin_credentials(home)[0], False
    with os.fdopen(fd, "w") as out:
        json.dump(asdict(made), out, indent=2)
    return made, True


def admin_env(home: Path) -> dict[str, str]:
    """The identity service's variables that make the administrator."""
    admin, _ = admin_credentials(home)
    return {
        "AXONAL_IDENTITY_ADMIN_NAME": admin.username,
        "AXONAL_IDENTITY_ADMIN_PASSWORD": admin.password,
        "AXONAL_IDENTITY_ADMIN_TOKEN": admin.token,
    }
