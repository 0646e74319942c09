"""Flows of deletion and retention: rows go in the caller's transaction, and the stored
objects no row names any more leave the artifact store with them."""

from __future__ import annotations

from datetime import datetime

from axonal_db import Connection
from axonal_storage import ArtifactStore
from axonal_tracking.retention import store

__all__ = ["delete_project", "delete_run", "expire_artifacts"]


async def _delete_keys(artifacts: ArtifactStore | None, keys: list[str]) -> int:
    if artifacts is None:
        return 0
    for key in keys:
        await artifacts.delete(key)  # a missing key is a no-op: a redelivery is harmless
    return len(keys)


async def delete_project(
    conn: Connection, artifacts: ArtifactStore | None, slug: str, project_id: str
) -> int:
    """The project's rows, and every object under ``<owner>/<name>/``."""
    went = await store.delete_project(conn, slug, project_id)
    if artifacts is None:
        return went
    keys = [info.key async for info in artifacts.list(f"{slug}/")]
    return went + await _delete_keys(artifacts, keys)


async def delete_run(
    conn: Connection, artifacts: ArtifactStore | None, slug: str, run_uuid: str
) -> int:
    """The run's rows, its objects, and the content no other artifact of the project has."""
    removed = await store.delete_run(conn, run_uuid)
    keys = await store.unreferenced(conn, slug, removed)
    if artifacts is not None:
        keys += [info.key async for info in artifacts.list(f"{slug}/{run_uuid}/")]
    return len(removed) + await _delete_keys(artifacts, sorted(set(keys)))


async def expire_artifacts(
    conn: Connection, artifacts: ArtifactStore | None, slug: str, cutoff: datetime, limit: int
) -> int:
    """Up to ``limit`` expired artifacts of the project, and the objects none still names."""
    removed = await store.expire_artifacts(conn, slug, cutoff, limit)
    await _delete_keys(artifacts, await store.unreferenced(conn, slug, removed))
    return len(removed)
