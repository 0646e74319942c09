"""SQL of the ``annotation_queues``, ``annotation_queue_items`` and
``annotation_queue_assignments`` tables."""

from __future__ import annotations

import uuid
from typing import Any

from axonal_db import Connection
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    CreateQueue,
    QueueItem,
    QueueStatus,
)

__all__ = [
    "assign",
    "count_items",
    "count_queues",
    "delete_item",
    "find_item",
    "find_queue",
    "insert_item",
    "insert_queue",
    "items_page",
    "queues_page",
    "set_status",
    "unassign",
]

_QUEUE = "id, project_id, name, description, score_config_ids, created_at, updated_at"
_ITEM = (
    "id, queue_id, project_id, object_id, object_type, status, completed_at, created_at, updated_at"
)


def _queue(row: Any) -> AnnotationQueue:
    return AnnotationQueue.model_validate(dict(row))


def _item(row: Any) -> QueueItem:
    return QueueItem.model_validate(dict(row))


async def insert_queue(conn: Connection, request: CreateQueue) -> AnnotationQueue | None:
    """The new queue; None when the project has a queue of that name."""
    row = await conn.fetchrow(
        "INSERT INTO annotation_queues (id, project_id, name, description, score_config_ids) "  # noqa: S608
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (project_id, name) DO NOTHING "
        f"RETURNING {_QUEUE}",
        str(uuid.uuid4()),
        request.project_id,
        request.name,
        request.description,
        list(dict.fromkeys(request.score_config_ids)),
    )
    return _queue(row) if row else None


async def find_queue(conn: Connection, project_id: str, queue_id: str) -> AnnotationQueue | None:
    row = await conn.fetchrow(
        f"SELECT {_QUEUE} FROM annotation_queues WHERE project_id = $1 AND id = $2",  # noqa: S608
        project_id,
        queue_id,
    )
    return _queue(row) if row else None


async def queue_named(conn: Connection, project_id: str, key: str) -> AnnotationQueue | None:
    """The queue of id ``key``, or named ``key``."""
    row = await conn.fetchrow(
        f"SELECT {_QUEUE} FROM annotation_queues WHERE project_id = $1 "  # noqa: S608
        "AND (id = $2 OR name = $2) ORDER BY id = $2 DESC LIMIT 1",
        project_id,
        key,
    )
    return _queue(row) if row else None


async def queues_page(
    conn: Connection, project_id: str, page: int, limit: int
) -> list[AnnotationQueue]:
    rows = await conn.fetch(
        f"SELECT {_QUEUE} FROM annotation_queues WHERE project_id = $1 "  # noqa: S608
        "ORDER BY created_at DESC, id LIMIT $2 OFFSET $3",
        project_id,
        limit,
        (page - 1) * limit,
    )
    return [_queue(row) for row in rows]


async def count_queues(conn: Connection, project_id: str) -> int:
    found = await conn.fetchval(
        "SELECT count(*) FROM annotation_queues WHERE project_id = $1", project_id
    )
    return int(found or 0)


async def insert_item(conn: Connection, request: AddQueueItem) -> QueueItem:
    """The new item, or the one the queue already has for the object (unchanged)."""
    row = await conn.fetchrow(
        "INSERT INTO annotation_queue_items "  # noqa: S608 (fixed column list)
        "(id, queue_id, project_id, object_id, object_type, status, completed_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6 = 'COMPLETED' THEN now() END) "
        "ON CONFLICT (queue_id, object_type, object_id) DO NOTHING "
        f"RETURNING {_ITEM}",
        str(uuid.uuid4()),
        request.queue_id,
        request.project_id,
        request.object_id,
        request.object_type.value,
        request.status.value,
    )
    if row is None:
        row = await conn.fetchrow(
            f"SELECT {_ITEM} FROM annotation_queue_items "  # noqa: S608
            "WHERE queue_id = $1 AND object_type = $2 AND object_id = $3",
            request.queue_id,
            request.object_type.value,
            request.object_id,
        )
    return _item(row)


async def find_item(
    conn: Connection, project_id: str, queue_id: str, item_id: str, *, lock: bool = False
) -> QueueItem | None:
    row = await conn.fetchrow(
        f"SELECT {_ITEM} FROM annotation_queue_items "  # noqa: S608
        "WHERE project_id = $1 AND queue_id = $2 AND id = $3" + (" FOR UPDATE" if lock else ""),
        project_id,
        queue_id,
        item_id,
    )
    return _item(row) if row else None


async def items_page(
    conn: Connection, queue_id: str, status: QueueStatus | None, page: int, limit: int
) -> list[QueueItem]:
    rows = await conn.fetch(
        f"SELECT {_ITEM} FROM annotation_queue_items "  # noqa: S608
        "WHERE queue_id = $1 AND ($2::text IS NULL OR status = $2) "
        "ORDER BY created_at, id LIMIT $3 OFFSET $4",
        queue_id,
        status.value if status else None,
        limit,
        (page - 1) * limit,
    )
    return [_item(row) for row in rows]


async def count_items(conn: Connection, queue_id: str, status: QueueStatus | None) -> int:
    found = await conn.fetchval(
        "SELECT count(*) FROM annotation_queue_items "
        "WHERE queue_id = $1 AND ($2::text IS NULL OR status = $2)",
        queue_id,
        status.value if status else None,
    )
    return int(found or 0)


async def set_status(conn: Connection, item_id: str, status: QueueStatus) -> QueueItem:
    """Set the status; ``completed_at`` is the time it was first completed, kept after."""
    row = await conn.fetchrow(
        "UPDATE annotation_queue_items SET status = $2, updated_at = now(), "  # noqa: S608
        "completed_at = CASE WHEN $2 = 'COMPLETED' THEN coalesce(completed_at, now()) END "
        f"WHERE id = $1 RETURNING {_ITEM}",
        item_id,
        status.value,
    )
    return _item(row)


async def delete_item(conn: Connection, project_id: str, queue_id: str, item_id: str) -> bool:
    deleted = await conn.fetchval(
        "DELETE FROM annotation_queue_items WHERE project_id = $1 AND queue_id = $2 AND id = $3 "
        "RETURNING id",
        project_id,
        queue_id,
        item_id,
    )
    return deleted is not None


async def assign(conn: Connection, queue_id: str, user_id: str) -> None:
    await conn.execute(
        "INSERT INTO annotation_queue_assignments (queue_id, user_id) VALUES ($1, $2) "
        "ON CONFLICT DO NOTHING",
        queue_id,
        user_id,
    )


async def unassign(conn: Connection, queue_id: str, user_id: str) -> None:
    await conn.execute(
        "DELETE FROM annotation_queue_assignments WHERE queue_id = $1 AND user_id = $2",
        queue_id,
        user_id,
    )
