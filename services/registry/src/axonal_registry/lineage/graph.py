"""The lineage graph of a model version: walk upstream from its run, through the dataset
versions each run read, to the runs that wrote them, ``depth`` runs deep."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_db import Connection
from axonal_events.model_registry import LineageEdge, LineageGraph, LineageNode, ReadModelLineage
from axonal_registry.domain.lineage import Graph
from axonal_registry.lineage import store

__all__ = ["upstream"]


async def upstream(conn: Connection, request: ReadModelLineage) -> LineageGraph:
    found = await store.model_version(conn, request.project, request.model, request.version)
    if found is None:
        raise NotFound(f"version: model {request.model!r} has no version {request.version}")
    graph = Graph()
    run_uuid = str(found.pop("run_uuid"))
    graph.model_version(request.model, request.version, run_uuid, **found)
    frontier = [run_uuid]
    for _ in range(request.depth):
        upstream_runs: list[str] = []
        for run in frontier:
            for name, sha256 in graph.run_used(await store.used_by(conn, request.project, run)):
                producers = await store.producers(conn, request.project, sha256)
                upstream_runs += graph.producers(name, sha256, producers)
        frontier = sorted(set(upstream_runs))
        if not frontier:
            break
    return LineageGraph(
        nodes=[
            LineageNode(id=node_id, kind=kind, label=label, attributes=attributes)
            for node_id, (kind, label, attributes) in graph.nodes.items()
        ],
        edges=[LineageEdge(source=s, target=t, relation=r) for s, t, r in graph.edges],
    )
