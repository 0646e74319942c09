"""The scores a reviewer gives a queue item, checked against the queue's score configs."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from axonal_events.annotation_queues import AnnotationScore, QueueItem, QueueObjectType
from axonal_events.score_configs import ScoreConfig, ScoreRefused, check_score
from axonal_events.traces import ScoreRecord, ScoreSource

__all__ = ["annotation_scores", "score_id"]

_NAMESPACE = uuid.UUID("6f1c2a52-4d0e-4b8e-9a57-0c3f9e7d2b11")


def score_id(item_id: str, name: str) -> str:
    """The id of the score ``name`` of a queue item: the same on every retry."""
    return str(uuid.uuid5(_NAMESPACE, f"{item_id}/{name}"))


def _config(
    score: AnnotationScore, configs: Sequence[ScoreConfig], queue_config_ids: Sequence[str]
) -> ScoreConfig:
    if score.config_id is not None:
        found = next((c for c in configs if c.id == score.config_id), None)
        if found is None or score.config_id not in queue_config_ids:
            raise ScoreRefused(f"configId: {score.config_id} is not a score config of the queue")
        if score.name is not None and score.name != found.name:
            raise ScoreRefused(
                f"Name mismatch based on config: expected {found.name}, got {score.name}"
            )
        return found
    if score.name is None:
        raise ScoreRefused("scores: each score names its config by name or configId")
    found = next((c for c in configs if c.name == score.name), None)
    if found is None:
        names = ", ".join(c.name for c in configs) or "none"
        raise ScoreRefused(f"name: {score.name!r} is not a score config of the queue ({names})")
    return found


def annotation_scores(
    item: QueueItem,
    scores: Sequence[AnnotationScore],
    configs: Sequence[ScoreConfig],
    queue_config_ids: Sequence[str],
    *,
    now: datetime,
    trace_id: str | None = None,
) -> list[ScoreRecord]:
    """One ANNOTATION score per given score, on the item's object; :class:`ScoreRefused` says
    which score breaks which rule."""
    target: dict[str, str] = {}
    if item.object_type is QueueObjectType.TRACE:
        target["trace_id"] = item.object_id
    elif item.object_type is QueueObjectType.SESSION:
        target["session_id"] = item.object_id
    elif trace_id is None:
        raise ScoreRefused("traceId: the scores of an OBSERVATION item need its trace id")
    else:
        target |= {"trace_id": trace_id, "observation_id": item.object_id}
    records: list[ScoreRecord] = []
    for score in scores:
        config = _config(score, configs, queue_config_ids)
        if any(r.config_id == config.id for r in records):
            raise ScoreRefused(f"scores: {config.name!r} is given twice")
        value = int(score.value) if isinstance(score.value, bool) else score.value
        try:
            checked = check_score(config, value)
        except ScoreRefused as exc:
            raise ScoreRefused(f"{config.name}: {exc}") from None
        records.append(
            ScoreRecord(
                id=score_id(item.id, checked.name),
                event_time=now,
                timestamp=now,
                name=checked.name,
                data_type=checked.data_type,
                value=checked.value,
                string_value=checked.string_value,
                source=ScoreSource.ANNOTATION,
                comment=score.comment,
                config_id=config.id,
                queue_id=item.queue_id,
                **target,
            )
        )
    return records
