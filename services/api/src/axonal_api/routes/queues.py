"""``/api/v1/{owner}/{project}/annotation-queues``: annotation queues with the platform's auth
(the CLI's, the UI's), in Axonal's shapes; completing an item with its scores."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    AnnotationScore,
    CompletedQueueItem,
    CompleteQueueItem,
    CreateQueue,
    ListQueueItems,
    ListQueues,
    QueueItem,
    QueueItemPage,
    QueueItemRef,
    QueueObjectType,
    QueuePage,
    QueueRef,
    QueueStatus,
)
from axonal_events.rpcs import Evaluation, Tracking
from axonal_events.score_configs import GetScoreConfigs, ScoreConfigList
from axonal_events.trace_reads import GetObservation

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/{owner}/{project}/annotation-queues",
    tags=["annotation queues"],
    responses=ERRORS,
)


class QueueTerms(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    description: str | None = None
    score_config_ids: list[str] = Field(default_factory=list, max_length=100)


class ItemTerms(BaseModel):
    object_id: str = Field(min_length=1, max_length=1000)
    object_type: QueueObjectType = QueueObjectType.TRACE


class Completion(BaseModel):
    scores: list[AnnotationScore] = Field(
        default_factory=list, description="Each names one of the queue's configs."
    )
    trace_id: str | None = Field(
        default=None, description="An OBSERVATION item's trace (read from tracking if not given)."
    )


@router.get("", summary="The project's annotation queues")
async def list_queues(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> QueuePage:
    project_id = await project_id_of(gw, owner, project)
    query = ListQueues(project_id=project_id, page=page, limit=limit)
    return await gw.call(Evaluation.list_queues, query)


@router.post("", summary="Create an annotation queue")
async def create_queue(
    gw: GatewayDep, owner: Owner, project: Project, body: QueueTerms
) -> AnnotationQueue:
    project_id = await project_id_of(gw, owner, project)
    request = CreateQueue(project_id=project_id, **body.model_dump())
    return await gw.call(Evaluation.create_queue, request)


@router.get("/{queue_id}", summary="One annotation queue")
async def get_queue(
    gw: GatewayDep, owner: Owner, project: Project, queue_id: str
) -> AnnotationQueue:
    project_id = await project_id_of(gw, owner, project)
    return await gw.call(Evaluation.get_queue, QueueRef(project_id=project_id, queue_id=queue_id))


@router.get("/{queue_id}/score-configs", summary="The score configs a queue is scored with")
async def queue_configs(
    gw: GatewayDep, owner: Owner, project: Project, queue_id: str
) -> ScoreConfigList:
    project_id = await project_id_of(gw, owner, project)
    queue = await gw.call(Evaluation.get_queue, QueueRef(project_id=project_id, queue_id=queue_id))
    query = GetScoreConfigs(project_id=project_id, ids=queue.score_config_ids)
    found = await gw.call(Evaluation.get_score_configs, query)
    order = {config_id: i for i, config_id in enumerate(queue.score_config_ids)}
    return ScoreConfigList(data=sorted(found.data, key=lambda c: order[c.id]))


@router.get("/{queue_id}/items", summary="A queue's items, oldest first")
async def list_items(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    queue_id: str,
    status: QueueStatus | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> QueueItemPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListQueueItems(
        project_id=project_id, queue_id=queue_id, status=status, page=page, limit=limit
    )
    return await gw.call(Evaluation.list_queue_items, query)


@router.post("/{queue_id}/items", summary="Add an object to a queue (once)")
async def add_item(
    gw: GatewayDep, owner: Owner, project: Project, queue_id: str, body: ItemTerms
) -> QueueItem:
    project_id = await project_id_of(gw, owner, project)
    request = AddQueueItem(project_id=project_id, queue_id=queue_id, **body.model_dump())
    return await gw.call(Evaluation.add_queue_item, request)


@router.post(
    "/{queue_id}/items/{item_id}/complete",
    summary="Complete an item and create its scores (source ANNOTATION, with the queue id)",
)
async def complete_item(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    queue_id: str,
    item_id: str,
    body: Completion,
) -> CompletedQueueItem:
    project_id = await project_id_of(gw, owner, project)
    trace_id = body.trace_id
    if trace_id is None:
        ref = QueueItemRef(project_id=project_id, queue_id=queue_id, item_id=item_id)
        item = await gw.call(Evaluation.get_queue_item, ref)
        if item.object_type is QueueObjectType.OBSERVATION:
            query = GetObservation(project_id=project_id, id=item.object_id)
            trace_id = (await gw.call(Tracking.get_observation, query)).trace_id
    request = CompleteQueueItem(
        project_id=project_id,
        project=f"{owner}/{project}",
        queue_id=queue_id,
        item_id=item_id,
        scores=body.scores,
        trace_id=trace_id,
    )
    return await gw.call(Evaluation.complete_queue_item, request)
