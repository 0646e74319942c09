"""Request/reply: a run's artifacts, one artifact's versions, the run's lineage (the runs
that produced what it read and read what it produced), and the bytes a project stores."""

from __future__ import annotations

from axonal_events.artifacts import (
    ArtifactList,
    Lineage,
    ListArtifacts,
    ListArtifactVersions,
    ReadLineage,
)
from axonal_events.quotas import StorageUsage
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Tracking
from axonal_tracking.artifacts import store
from axonal_tracking.context import Context

__all__ = ["artifact_versions", "lineage", "list_artifacts", "register", "storage_usage"]


async def list_artifacts(ctx: Context, request: ListArtifacts) -> ArtifactList:
    async with ctx.pool.acquire() as conn:
        return ArtifactList(artifacts=await store.list_for(conn, request.run_uuid))


async def artifact_versions(ctx: Context, request: ListArtifactVersions) -> ArtifactList:
    async with ctx.pool.acquire() as conn:
        found = await store.versions_of(conn, request.run_uuid, request.name, request.path)
        return ArtifactList(artifacts=found)


async def lineage(ctx: Context, request: ReadLineage) -> Lineage:
    async with ctx.pool.acquire() as conn:
        return await store.lineage(conn, request.run_uuid)


async def storage_usage(ctx: Context, request: ProjectRef) -> StorageUsage:
    project = f"{request.owner}/{request.name}"
    async with ctx.pool.acquire() as conn:
        return StorageUsage(project=project, bytes=await store.stored_bytes(conn, project))


def register(ctx: Context) -> None:
    ctx.serve(Tracking.list_artifacts, list_artifacts)
    ctx.serve(Tracking.artifact_versions, artifact_versions)
    ctx.serve(Tracking.lineage, lineage)
    ctx.serve(Tracking.storage_usage, storage_usage)
