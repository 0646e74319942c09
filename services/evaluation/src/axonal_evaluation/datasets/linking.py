"""Dataset runs from traces: an ingested trace whose observations carry experiment attributes
(``langfuse.experiment.*``, as the Langfuse SDK's ``run_experiment`` sets them) becomes a run
item of its experiment, stored once; a later batch of the same trace refreshes it. The
context's ``items_linked`` hooks (the rules on the dataset) run in the same transaction."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime

from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import queries, store
from axonal_evaluation.datasets.reads import trace_details
from axonal_evaluation.domain.experiments import RunLink, links_of, run_item_id
from axonal_events.datasets import RunItem

__all__ = ["link_traces", "store_link"]


async def store_link(conn: Connection, link: RunLink) -> RunLink | None:
    """Store the run and its item, as stored (a run named as one the dataset has is that
    run); ``None`` (nothing stored) when the run names a dataset the project does not have."""
    run = link.run
    dataset_id = run.dataset_id
    if dataset_id is not None and not await store.find_dataset(conn, run.project_id, id=dataset_id):
        return None
    named = None
    if dataset_id is not None:
        named = await queries.find_run(conn, run.project_id, dataset_id=dataset_id, name=run.name)
    if named is not None and named.id != run.id:
        # another id for a run name the dataset has (a caller's own experiment id): one run
        run = named
        moved = {"dataset_run_id": named.id}
        moved["id"] = run_item_id(named.id, link.item.dataset_item_id, link.item.trace_id)
        link = RunLink(run, link.item.model_copy(update=moved))
    await queries.upsert_run(
        conn,
        run_id=run.id,
        project_id=run.project_id,
        dataset_id=run.dataset_id,
        name=run.name,
        description=run.description,
        metadata=run.metadata,
    )
    await queries.upsert_run_item(conn, link.item)
    return link


async def link_traces(ctx: Context, project_id: str, trace_ids: list[str]) -> int:
    """Read the traces from tracking and store the run items they declare; how many."""
    details = await trace_details(ctx, project_id, trace_ids)
    now = datetime.now(UTC)
    links = [link for d in details.values() for link in links_of(d, now)]
    if not links:
        return 0
    by_dataset: dict[str, list[RunItem]] = defaultdict(list)
    pending = PendingEvents(ctx.subjects)
    async with transaction(ctx.pool) as conn:
        for link in links:
            stored = await store_link(conn, link)
            if stored is not None and stored.run.dataset_id is not None:
                by_dataset[stored.run.dataset_id].append(stored.item)
        for dataset_id, items in sorted(by_dataset.items()):
            await ctx.link_items(conn, pending, project_id, dataset_id, items)
    await ctx.publish_committed(pending)
    return sum(len(items) for items in by_dataset.values())
