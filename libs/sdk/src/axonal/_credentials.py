"""Which token the CLI and the SDK send to an api.

In order: ``AXONAL_API_TOKEN``; the token ``axonal login`` kept for that api in
``$AXONAL_HOME/credentials.json``; and, for the local stack's own api, the administrator's
token ``axonal up`` made in ``$AXONAL_HOME/admin.json``. Files are plain JSON, readable by
their owner only (the SDK imports no server code).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["credentials_path", "forget_token", "keep_token", "token_for"]


def _home() -> Path:
    return Path(os.environ.get("AXONAL_HOME") or "~/.axonal").expanduser()


def credentials_path() -> Path:
    return _home() / "credentials.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _key(api_url: str) -> str:
    return api_url.rstrip("/")


def token_for(api_url: str) -> str | None:
    """The token to send to ``api_url``, if any is known."""
    if token := os.environ.get("AXONAL_API_TOKEN"):
        return token
    kept = _read(credentials_path()).get(_key(api_url))
    if isinstance(kept, dict) and isinstance(kept.get("token"), str):
        return str(kept["token"])
    stack = _read(_home() / "stack.json").get("api_url")
    if isinstance(stack, str) and _key(stack) == _key(api_url):
        admin = _read(_home() / "admin.json").get("token")
        return admin if isinstance(admin, str) and admin else None
    return None


def keep_token(api_url: str, token: str, user: str) -> Path:
    """Remember ``token`` for ``api_url`` (the file is its owner's only)."""
    path = credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = _read(path)
    doc[_key(api_url)] = {"token": token, "user": user}
    _write(path, doc)
    return path


def forget_token(api_url: str) -> bool:
    path = credentials_path()
    doc = _read(path)
    if doc.pop(_key(api_url), None) is None:
        return False
    _write(path, doc)
    return True


def _write(path: Path, doc: dict[str, Any]) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(doc, out, indent=2)
