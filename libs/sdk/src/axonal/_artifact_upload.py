"""Uploads of artifacts to the api: where (from the run's environment) and how (one PUT).

``httpx`` is imported when an upload happens: ``import axonal.tracking`` stays light.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from axonal._errors import NotInRunError

__all__ = [
    "QUICK",
    "ArtifactUploadError",
    "Target",
    "Unreachable",
    "attach",
    "current_target",
    "message",
    "put",
    "target_from_env",
]

QUICK = 10.0  # seconds: a typed artifact waits this long at most for the backend


class ArtifactUploadError(RuntimeError):
    """The api refused an artifact, or could not be reached for an explicit upload."""


class Unreachable(Exception):
    """The backend is away (no connection, a timeout, a 5xx): worth trying again later."""


@dataclass(frozen=True)
class Target:
    """Where this process uploads: the api, the run's project and uuid, its token."""

    api_url: str
    project: str
    run_uuid: str
    token: str | None

    def url(self, path: str) -> str:
        run = f"{self.api_url}/api/v1/{self.project}/runs/{self.run_uuid}"
        return f"{run}/artifacts/{quote(path)}"


_attached: Target | None = None


def attach(target: Target | None) -> None:
    """Upload to ``target`` (the run ``init()`` created) rather than the environment's run."""
    global _attached  # noqa: PLW0603 - one tracked run per process
    _attached = target


def current_target() -> Target:
    """The run ``init()`` created, else the managed run of the environment."""
    return _attached or target_from_env()


def target_from_env() -> Target:
    env = os.environ
    run_uuid = env.get("AXONAL_RUN_UUID", "").replace("-", "").lower()
    api_url = env.get("AXONAL_API_URL", "")
    project = env.get("AXONAL_PROJECT", "")
    if not run_uuid or not api_url:
        raise NotInRunError(
            "not inside an Axonal run: artifacts go to a run an agent started "
            "(AXONAL_RUN_UUID and AXONAL_API_URL) or one tracking.init() created online "
            "(offline runs record metrics, inputs and outputs only)"
        )
    if project.count("/") != 1 or not all(project.split("/")):
        raise NotInRunError(f"AXONAL_PROJECT must be owner/name, not {project!r}")
    token = env.get("AXONAL_API_TOKEN") or None
    return Target(api_url.rstrip("/"), project, run_uuid, token)


def put(
    target: Target,
    path: str,
    content: bytes | Iterator[bytes],
    params: Mapping[str, str],
    summary: Mapping[str, Any],
    *,
    size: int,
    timeout: float | None,
) -> dict[str, Any]:
    """Upload one artifact; its record. :class:`Unreachable` when worth retrying later."""
    import httpx  # noqa: PLC0415 - `import axonal.tracking` stays standard-library only

    headers = {"Content-Type": "application/octet-stream", "Content-Length": str(size)}
    if target.token:
        headers["Authorization"] = f"Bearer {target.token}"
    if summary:
        headers["Axonal-Summary"] = json.dumps(summary, separators=(",", ":"))
    try:
        reply = httpx.put(
            target.url(path),
            content=content,
            params=dict(params),
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout or QUICK, QUICK)),
        )
    except httpx.TransportError as exc:
        raise Unreachable(f"cannot reach {target.api_url}: {exc or type(exc).__name__}") from None
    status = reply.status_code
    if status >= 500 or status in {408, 429}:
        raise Unreachable(f"HTTP {status}: {message(reply)}")
    if status >= 400:
        raise ArtifactUploadError(
            f"the api refused artifact {path!r}: HTTP {status}: {message(reply)}"
        )
    record: dict[str, Any] = reply.json()
    return record


def message(reply: Any) -> str:
    try:
        return str(reply.json()["message"])
    except (ValueError, KeyError, TypeError):
        return str(reply.text[:200])
