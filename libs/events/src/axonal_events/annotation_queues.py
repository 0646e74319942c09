"""Annotation queues: human review of traces, observations and sessions (the evaluation
service owns them).

A queue names the score configs its reviewers score with. An item is one object to review,
at most once per queue (adding it again answers the item already there); it is PENDING until
completed. Completing an item with scores checks each against the queue's configs and creates
them as ``score.created`` events (``source`` ANNOTATION, ``queue_id`` set), in the same
transaction that marks the item COMPLETED; a score's id derives from the item and the score
name, so completing again replaces nothing twice.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.trace_reads import PageMeta

__all__ = [
    "AddQueueItem",
    "AnnotationQueue",
    "AnnotationScore",
    "CompleteQueueItem",
    "CompletedQueueItem",
    "CreateQueue",
    "DeletedQueueItem",
    "ListQueueItems",
    "ListQueues",
    "QueueAssignment",
    "QueueAssignmentDeleted",
    "QueueItem",
    "QueueItemPage",
    "QueueItemRef",
    "QueueObjectType",
    "QueuePage",
    "QueueRef",
    "QueueStatus",
    "UpdateQueueItem",
]


class QueueObjectType(StrEnum):
    TRACE = "TRACE"
    OBSERVATION = "OBSERVATION"
    SESSION = "SESSION"


class QueueStatus(StrEnum):
    PENDING = "PENDING"
    COMPLETED = "COMPLETED"


class CreateQueue(Payload):
    project_id: str = Field(min_length=1)
    name: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=2000)
    score_config_ids: list[str] = Field(default_factory=list, max_length=100)


class AnnotationQueue(Payload):
    id: str
    project_id: str
    name: str
    description: str | None = None
    score_config_ids: list[str]
    created_at: datetime
    updated_at: datetime


class QueueRef(Payload):
    project_id: str
    queue_id: str


class ListQueues(Payload):
    project_id: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class QueuePage(Payload):
    data: list[AnnotationQueue]
    meta: PageMeta


class AddQueueItem(Payload):
    """Add one object to a queue; an object already in the queue answers its item."""

    project_id: str = Field(min_length=1)
    queue_id: str = Field(min_length=1)
    object_id: str = Field(min_length=1, max_length=1000)
    object_type: QueueObjectType
    status: QueueStatus = QueueStatus.PENDING


class QueueItem(Payload):
    id: str
    queue_id: str
    project_id: str
    object_id: str
    object_type: QueueObjectType
    status: QueueStatus
    completed_at: datetime | None = None
    created_at: datetime
    updated_at: datetime


class ListQueueItems(Payload):
    project_id: str
    queue_id: str
    status: QueueStatus | None = None
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class QueueItemPage(Payload):
    data: list[QueueItem]
    meta: PageMeta


class QueueItemRef(Payload):
    project_id: str
    queue_id: str
    item_id: str


class UpdateQueueItem(QueueItemRef):
    """Langfuse's status change: no score is written."""

    status: QueueStatus | None = None


class DeletedQueueItem(Payload):
    success: bool
    message: str


class QueueAssignment(Payload):
    """A user assigned to review a queue's items."""

    project_id: str
    queue_id: str
    user_id: str = Field(min_length=1, max_length=200)


class QueueAssignmentDeleted(Payload):
    success: bool


class AnnotationScore(Payload):
    """One score a reviewer gives: it names one of the queue's configs by name or id."""

    name: str | None = Field(default=None, min_length=1)
    config_id: str | None = None
    value: float | str | bool
    comment: str | None = Field(default=None, max_length=5000)


class CompleteQueueItem(QueueItemRef):
    """Mark an item COMPLETED and create its scores, in one transaction."""

    project: str = Field(description="``owner/name`` of the project.")
    scores: list[AnnotationScore] = Field(default_factory=list, max_length=100)
    trace_id: str | None = Field(
        default=None, description="The trace of an OBSERVATION item (its scores need it)."
    )


class CompletedQueueItem(Payload):
    item: QueueItem
    score_ids: list[str]
