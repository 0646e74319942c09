"""Model registry calls from a run: register a logged model artifact as a version, record an
evaluation's scores on a version (one POST to the api each).

``httpx`` is imported when called: ``import axonal.tracking`` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from axonal._artifact_upload import QUICK, ArtifactUploadError, Target, message

__all__ = ["record_scores", "register_version"]


def _post(target: Target, path: str, body: dict[str, Any], what: str) -> dict[str, Any]:
    import httpx  # noqa: PLC0415 - `import axonal.tracking` stays standard-library only

    url = f"{target.api_url}/api/v1/{target.project}/models/{path}"
    headers = {"Authorization": f"Bearer {target.token}"} if target.token else {}
    try:
        reply = httpx.post(url, json=body, headers=headers, timeout=QUICK * 3)
    except httpx.TransportError as exc:
        raise ArtifactUploadError(f"could not {what}: {exc}") from None
    if reply.status_code >= 400:
        raise ArtifactUploadError(
            f"the api refused to {what}: HTTP {reply.status_code}: {message(reply)}"
        )
    answer: dict[str, Any] = reply.json()
    return answer


def register_version(target: Target, model: str, record: dict[str, Any]) -> dict[str, Any]:
    """Make the artifact ``record`` (its name and sha256) a new version of ``model``; the
    version. Raises :class:`ArtifactUploadError` when the api refuses or cannot be reached."""
    body = {"run_uuid": target.run_uuid, "artifact": record["name"], "sha256": record["sha256"]}
    return _post(target, f"{quote(model, safe='')}/versions", body, f"register {model!r}")


def record_scores(
    target: Target, model: str, ref: str, scores: Mapping[str, float], dataset: str | None
) -> dict[str, Any]:
    """Record the run's ``scores`` of version ``ref`` of ``model``; the version's scores."""
    body = {"run_uuid": target.run_uuid, "scores": dict(scores), "dataset": dataset}
    path = f"{quote(model, safe='')}/versions/{quote(ref, safe='')}/scores"
    return _post(target, path, body, f"record scores of {model} {ref}")
