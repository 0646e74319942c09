"""Request/reply: queues, their items and assignments; completing an item with scores."""

from __future__ import annotations

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_bus.outbox import enqueue_many
from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.queues import store
from axonal_evaluation.queues.review import add_to_queue, complete_item, queue_of
from axonal_evaluation.score_configs import store as configs
from axonal_events import new_event
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    CompletedQueueItem,
    CompleteQueueItem,
    CreateQueue,
    DeletedQueueItem,
    ListQueueItems,
    ListQueues,
    QueueAssignment,
    QueueAssignmentDeleted,
    QueueItem,
    QueueItemPage,
    QueueItemRef,
    QueuePage,
    QueueRef,
    UpdateQueueItem,
)
from axonal_events.rpcs import Evaluation
from axonal_events.trace_reads import PageMeta

__all__ = [
    "add_queue_item",
    "assign_queue",
    "complete_queue_item",
    "create_queue",
    "delete_queue_item",
    "get_queue",
    "get_queue_item",
    "list_queue_items",
    "list_queues",
    "register",
    "unassign_queue",
    "update_queue_item",
]


async def create_queue(ctx: Context, request: CreateQueue) -> AnnotationQueue:
    async with transaction(ctx.pool) as conn:
        ids = list(dict.fromkeys(request.score_config_ids))
        found = {c.id for c in await configs.find_many(conn, request.project_id, ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise Invalid(f"scoreConfigIds: no score config {', '.join(missing)} in the project")
        created = await store.insert_queue(conn, request)
    if created is None:
        raise Conflict(f"An annotation queue named {request.name!r} already exists")
    return created


async def get_queue(ctx: Context, request: QueueRef) -> AnnotationQueue:
    async with ctx.pool.acquire() as conn:
        return await queue_of(conn, request.project_id, request.queue_id)


async def list_queues(ctx: Context, request: ListQueues) -> QueuePage:
    async with ctx.pool.acquire() as conn:
        data = await store.queues_page(conn, request.project_id, request.page, request.limit)
        total = await store.count_queues(conn, request.project_id)
    return QueuePage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def add_queue_item(ctx: Context, request: AddQueueItem) -> QueueItem:
    async with transaction(ctx.pool) as conn:
        return await add_to_queue(
            conn,
            request.project_id,
            request.queue_id,
            request.object_id,
            request.object_type,
            request.status,
        )


async def list_queue_items(ctx: Context, request: ListQueueItems) -> QueueItemPage:
    async with ctx.pool.acquire() as conn:
        await queue_of(conn, request.project_id, request.queue_id)
        data = await store.items_page(
            conn, request.queue_id, request.status, request.page, request.limit
        )
        total = await store.count_items(conn, request.queue_id, request.status)
    return QueueItemPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def get_queue_item(ctx: Context, request: QueueItemRef) -> QueueItem:
    async with ctx.pool.acquire() as conn:
        found = await store.find_item(conn, request.project_id, request.queue_id, request.item_id)
    if found is None:
        raise NotFound(f"Annotation queue item not found: {request.item_id}")
    return found


async def update_queue_item(ctx: Context, request: UpdateQueueItem) -> QueueItem:
    async with transaction(ctx.pool) as conn:
        found = await store.find_item(
            conn, request.project_id, request.queue_id, request.item_id, lock=True
        )
        if found is None:
            raise NotFound(f"Annotation queue item not found: {request.item_id}")
        if request.status is None or request.status is found.status:
            return found
        return await store.set_status(conn, found.id, request.status)


async def delete_queue_item(ctx: Context, request: QueueItemRef) -> DeletedQueueItem:
    async with ctx.pool.acquire() as conn:
        deleted = await store.delete_item(
            conn, request.project_id, request.queue_id, request.item_id
        )
    if not deleted:
        raise NotFound(f"Annotation queue item not found: {request.item_id}")
    return DeletedQueueItem(success=True, message="Successfully deleted annotation queue item")


async def complete_queue_item(ctx: Context, request: CompleteQueueItem) -> CompletedQueueItem:
    async with transaction(ctx.pool) as conn:
        item, created = await complete_item(conn, request)
        events = [new_event(d, source=ctx.source, project=request.project) for d in created]
        await enqueue_many(conn, ctx.subjects, events)
    return CompletedQueueItem(item=item, score_ids=[e.score.id for e in created])


async def assign_queue(ctx: Context, request: QueueAssignment) -> QueueAssignment:
    async with transaction(ctx.pool) as conn:
        await queue_of(conn, request.project_id, request.queue_id)
        await store.assign(conn, request.queue_id, request.user_id)
    return request


async def unassign_queue(ctx: Context, request: QueueAssignment) -> QueueAssignmentDeleted:
    async with transaction(ctx.pool) as conn:
        await queue_of(conn, request.project_id, request.queue_id)
        await store.unassign(conn, request.queue_id, request.user_id)
    return QueueAssignmentDeleted(success=True)


def register(ctx: Context) -> None:
    ctx.serve(Evaluation.create_queue, create_queue)
    ctx.serve(Evaluation.get_queue, get_queue)
    ctx.serve(Evaluation.list_queues, list_queues)
    ctx.serve(Evaluation.add_queue_item, add_queue_item)
    ctx.serve(Evaluation.list_queue_items, list_queue_items)
    ctx.serve(Evaluation.get_queue_item, get_queue_item)
    ctx.serve(Evaluation.update_queue_item, update_queue_item)
    ctx.serve(Evaluation.delete_queue_item, delete_queue_item)
    ctx.serve(Evaluation.complete_queue_item, complete_queue_item)
    ctx.serve(Evaluation.assign_queue, assign_queue)
    ctx.serve(Evaluation.unassign_queue, unassign_queue)
