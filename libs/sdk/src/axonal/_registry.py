"""Register a logged model artifact as a version of a registered model (one POST to the api).

``httpx`` is imported when a model is registered: ``import axonal.tracking`` stays light.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from axonal._artifact_upload import QUICK, ArtifactUploadError, Target, message

__all__ = ["register_version"]


def register_version(target: Target, model: str, record: dict[str, Any]) -> dict[str, Any]:
    """Make the artifact ``record`` (its name and sha256) a new version of ``model``; the
    version. Raises :class:`ArtifactUploadError` when the api refuses or cannot be reached."""
    import httpx  # noqa: PLC0415 - `import axonal.tracking` stays standard-library only

    url = f"{target.api_url}/api/v1/{target.project}/models/{quote(model, safe='')}/versions"
    body = {"run_uuid": target.run_uuid, "artifact": record["name"], "sha256": record["sha256"]}
    headers = {"Authorization": f"Bearer {target.token}"} if target.token else {}
    try:
        reply = httpx.post(url, json=body, headers=headers, timeout=QUICK * 3)
    except httpx.TransportError as exc:
        raise ArtifactUploadError(f"could not register {model!r}: {exc}") from None
    if reply.status_code >= 400:
        raise ArtifactUploadError(
            f"the api refused to register {model!r}: HTTP {reply.status_code}: {message(reply)}"
        )
    version: dict[str, Any] = reply.json()
    return version
