"""Langfuse-compatible annotation queues (``/api/public/annotation-queues``): queues, their
items and the users assigned, for the key's project.

Langfuse's ``PATCH .../items/{itemId} {status: COMPLETED}`` only sets the status; completing an
item with scores is ``/api/v1/{owner}/{project}/annotation-queues/.../complete``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import ConfigDict, Field

from axonal_api.deps import GatewayDep
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep
from axonal_api.public_bodies import Camel, Paged, PageInfo
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    CreateQueue,
    ListQueueItems,
    ListQueues,
    QueueAssignment,
    QueueItem,
    QueueItemRef,
    QueueObjectType,
    QueueRef,
    QueueStatus,
    UpdateQueueItem,
)
from axonal_events.rpcs import Evaluation

__all__ = ["LangfuseQueue", "LangfuseQueueItem", "router"]

router = APIRouter(
    prefix="/api/public/annotation-queues",
    tags=["annotation queues"],
    responses=READ_RESPONSES,
)


class _Body(Camel):
    model_config = ConfigDict(extra="forbid")


class LangfuseQueue(Camel):
    """Langfuse's ``AnnotationQueue``."""

    id: str
    name: str
    description: str | None = None
    score_config_ids: list[str]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, queue: AnnotationQueue) -> LangfuseQueue:
        return cls.model_validate(queue.model_dump())


class LangfuseQueueItem(Camel):
    """Langfuse's ``AnnotationQueueItem``."""

    id: str
    queue_id: str
    object_id: str
    object_type: QueueObjectType
    status: QueueStatus
    completed_at: datetime | None = None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, item: QueueItem) -> LangfuseQueueItem:
        return cls.model_validate(item.model_dump())


class CreateQueueBody(_Body):
    name: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=2000)
    score_config_ids: list[str] = Field(max_length=100)


class CreateItemBody(_Body):
    object_id: str = Field(min_length=1, max_length=1000)
    object_type: QueueObjectType
    status: QueueStatus = QueueStatus.PENDING


class UpdateItemBody(_Body):
    status: QueueStatus | None = None


class AssignmentBody(_Body):
    user_id: str = Field(min_length=1, max_length=200)


class AssignmentCreated(Camel):
    user_id: str
    queue_id: str
    project_id: str


class AssignmentDeleted(Camel):
    success: bool


class ItemDeleted(Camel):
    success: bool
    message: str


Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=1000)]


@router.get("", summary="The project's annotation queues")
async def list_queues(
    gw: GatewayDep, project: KeyProjectDep, page: Page = 1, limit: Limit = 50
) -> Paged[LangfuseQueue]:
    found = await gw.call(
        Evaluation.list_queues, ListQueues(project_id=project.id, page=page, limit=limit)
    )
    return Paged(data=[LangfuseQueue.of(q) for q in found.data], meta=PageInfo.of(found.meta))


@router.post("", summary="Create an annotation queue scored with the given configs")
async def create_queue(
    gw: GatewayDep, project: KeyProjectDep, body: CreateQueueBody
) -> LangfuseQueue:
    request = CreateQueue(
        project_id=project.id,
        name=body.name,
        description=body.description,
        score_config_ids=body.score_config_ids,
    )
    return LangfuseQueue.of(await gw.call(Evaluation.create_queue, request))


@router.get("/{queue_id}", summary="One annotation queue")
async def get_queue(gw: GatewayDep, project: KeyProjectDep, queue_id: str) -> LangfuseQueue:
    found = await gw.call(Evaluation.get_queue, QueueRef(project_id=project.id, queue_id=queue_id))
    return LangfuseQueue.of(found)


@router.get("/{queue_id}/items", summary="A queue's items, oldest first")
async def list_items(
    gw: GatewayDep,
    project: KeyProjectDep,
    queue_id: str,
    status: QueueStatus | None = None,
    page: Page = 1,
    limit: Limit = 50,
) -> Paged[LangfuseQueueItem]:
    query = ListQueueItems(
        project_id=project.id, queue_id=queue_id, status=status, page=page, limit=limit
    )
    found = await gw.call(Evaluation.list_queue_items, query)
    return Paged(data=[LangfuseQueueItem.of(i) for i in found.data], meta=PageInfo.of(found.meta))


@router.post("/{queue_id}/items", summary="Add an object to a queue (once: again, the same item)")
async def create_item(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, body: CreateItemBody
) -> LangfuseQueueItem:
    request = AddQueueItem(
        project_id=project.id,
        queue_id=queue_id,
        object_id=body.object_id,
        object_type=body.object_type,
        status=body.status,
    )
    return LangfuseQueueItem.of(await gw.call(Evaluation.add_queue_item, request))


def _ref(project_id: str, queue_id: str, item_id: str) -> QueueItemRef:
    return QueueItemRef(project_id=project_id, queue_id=queue_id, item_id=item_id)


@router.get("/{queue_id}/items/{item_id}", summary="One item of a queue")
async def get_item(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, item_id: str
) -> LangfuseQueueItem:
    found = await gw.call(Evaluation.get_queue_item, _ref(project.id, queue_id, item_id))
    return LangfuseQueueItem.of(found)


@router.patch("/{queue_id}/items/{item_id}", summary="Set an item's status (no score written)")
async def update_item(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, item_id: str, body: UpdateItemBody
) -> LangfuseQueueItem:
    request = UpdateQueueItem(
        project_id=project.id, queue_id=queue_id, item_id=item_id, status=body.status
    )
    return LangfuseQueueItem.of(await gw.call(Evaluation.update_queue_item, request))


@router.delete("/{queue_id}/items/{item_id}", summary="Remove an item from a queue")
async def delete_item(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, item_id: str
) -> ItemDeleted:
    found = await gw.call(Evaluation.delete_queue_item, _ref(project.id, queue_id, item_id))
    return ItemDeleted(success=found.success, message=found.message)


@router.post("/{queue_id}/assignments", summary="Assign a user to a queue")
async def create_assignment(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, body: AssignmentBody
) -> AssignmentCreated:
    request = QueueAssignment(project_id=project.id, queue_id=queue_id, user_id=body.user_id)
    done = await gw.call(Evaluation.assign_queue, request)
    return AssignmentCreated(user_id=done.user_id, queue_id=done.queue_id, project_id=project.id)


@router.delete("/{queue_id}/assignments", summary="Remove a user's assignment")
async def delete_assignment(
    gw: GatewayDep, project: KeyProjectDep, queue_id: str, body: AssignmentBody
) -> AssignmentDeleted:
    request = QueueAssignment(project_id=project.id, queue_id=queue_id, user_id=body.user_id)
    done = await gw.call(Evaluation.unassign_queue, request)
    return AssignmentDeleted(success=done.success)
