"""LLM traces, observations and scores, on ``<ns>.ingest.traces.<project id>`` (their reads are in
:mod:`axonal_events.trace_reads`).

One internal format behind two wire formats (OTLP and the Langfuse batch API): the api converts
what a client sent into records and publishes them as one :class:`TraceBatch`. A record is a
create *or a partial update*: it carries its id and only the fields the client set (``None``
means "not set", never "clear"). The tracking service merges records of the same id in
``event_time`` order, as Langfuse does: a field a later record sets overwrites, an unset field
keeps its value, ``metadata`` is merged key by key and ``tags`` are unioned.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, model_validator

from axonal_events.base import Payload

__all__ = [
    "MAX_RECORDS_PER_BATCH",
    "ExperimentLink",
    "FiniteFloat",
    "ObservationLevel",
    "ObservationRecord",
    "ObservationType",
    "ScoreDataType",
    "ScoreRecord",
    "ScoreSource",
    "TraceBatch",
    "TraceRecord",
]

MAX_RECORDS_PER_BATCH = 50_000
_ID = Field(min_length=1, max_length=256)
_FINITE = Field(allow_inf_nan=False)
FiniteFloat = Annotated[float, _FINITE]


class ObservationType(StrEnum):
    SPAN = "SPAN"
    GENERATION = "GENERATION"
    EVENT = "EVENT"
    AGENT = "AGENT"
    TOOL = "TOOL"
    CHAIN = "CHAIN"
    RETRIEVER = "RETRIEVER"
    EVALUATOR = "EVALUATOR"
    EMBEDDING = "EMBEDDING"
    GUARDRAIL = "GUARDRAIL"


class ObservationLevel(StrEnum):
    DEBUG = "DEBUG"
    DEFAULT = "DEFAULT"
    WARNING = "WARNING"
    ERROR = "ERROR"


class ScoreDataType(StrEnum):
    NUMERIC = "NUMERIC"
    BOOLEAN = "BOOLEAN"
    CATEGORICAL = "CATEGORICAL"
    TEXT = "TEXT"


class ScoreSource(StrEnum):
    API = "API"
    EVAL = "EVAL"
    ANNOTATION = "ANNOTATION"


class TraceRecord(Payload):
    """A trace, or an update of one: ``id`` plus the fields the client set."""

    id: str = _ID
    event_time: datetime = Field(description="When the client made this record; merge order.")
    timestamp: datetime | None = None
    name: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    input: Any = None
    output: Any = None
    metadata: dict[str, Any] | None = None
    tags: list[str] | None = None
    public: bool | None = None
    release: str | None = None
    version: str | None = None
    environment: str | None = None
    run_uuid: str | None = Field(default=None, description="The Axonal run, when known.")


class ExperimentLink(Payload):
    """Dataset-run (experiment) linkage carried by ``langfuse.experiment.*`` span attributes."""

    id: str = _ID
    name: str | None = None
    description: str | None = None
    metadata: Any = None
    dataset_id: str | None = None
    item_id: str | None = None
    item_version: str | None = None
    item_metadata: Any = None
    item_root_observation_id: str | None = None
    item_expected_output: Any = None


class ObservationRecord(Payload):
    """An observation (span, generation, event, ...) or an update of one."""

    id: str = _ID
    trace_id: str = _ID
    type: ObservationType = ObservationType.SPAN
    event_time: datetime = Field(description="When the client made this record; merge order.")
    parent_observation_id: str | None = None
    name: str | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    completion_start_time: datetime | None = None
    input: Any = None
    output: Any = None
    metadata: dict[str, Any] | None = None
    level: ObservationLevel | None = None
    status_message: str | None = None
    version: str | None = None
    release: str | None = None
    environment: str | None = None
    model: str | None = None
    model_parameters: dict[str, Any] | None = None
    usage_details: dict[str, int] | None = None
    cost_details: dict[str, FiniteFloat] | None = None
    prompt_name: str | None = None
    prompt_version: int | None = None
    experiment: ExperimentLink | None = None


class ScoreRecord(Payload):
    """A score on exactly one trace, observation (with its trace), session or dataset run."""

    id: str = _ID
    event_time: datetime
    name: str = Field(min_length=1, max_length=1000)
    data_type: ScoreDataType = ScoreDataType.NUMERIC
    value: float | None = Field(
        default=None, allow_inf_nan=False, description="NUMERIC, BOOLEAN (0/1)."
    )
    string_value: str | None = Field(default=None, description="CATEGORICAL, TEXT, BOOLEAN.")
    source: ScoreSource = ScoreSource.API
    trace_id: str | None = None
    observation_id: str | None = None
    session_id: str | None = None
    dataset_run_id: str | None = None
    comment: str | None = None
    metadata: dict[str, Any] | None = None
    config_id: str | None = None
    queue_id: str | None = None
    environment: str = "default"
    timestamp: datetime | None = None

    @model_validator(mode="after")
    def _one_target(self) -> ScoreRecord:
        if not (self.trace_id or self.session_id or self.dataset_run_id):
            raise ValueError("a score needs a traceId, a sessionId or a datasetRunId")
        if self.value is None and self.string_value is None:
            raise ValueError("a score needs a value")
        return self


class TraceBatch(Payload):
    """What one ingestion request turned into, for one project."""

    project_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    project: str = Field(description="``owner/name`` of the project.")
    received_at: datetime
    traces: list[TraceRecord] = Field(default_factory=list, max_length=MAX_RECORDS_PER_BATCH)
    observations: list[ObservationRecord] = Field(
        default_factory=list, max_length=MAX_RECORDS_PER_BATCH
    )
    scores: list[ScoreRecord] = Field(default_factory=list, max_length=MAX_RECORDS_PER_BATCH)
