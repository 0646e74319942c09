"""LLM traces, observations and scores, on ``<ns>.ingest.traces.<project id>``, and their reads.

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
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from axonal_events.base import Payload

__all__ = [
    "MAX_RECORDS_PER_BATCH",
    "ExperimentLink",
    "FiniteFloat",
    "GetSession",
    "GetTrace",
    "ListObservations",
    "ListScores",
    "ListSessions",
    "ListTraces",
    "ObservationLevel",
    "ObservationPage",
    "ObservationRecord",
    "ObservationType",
    "ObservationView",
    "PageMeta",
    "ScoreDataType",
    "ScorePage",
    "ScoreRecord",
    "ScoreSource",
    "ScoreView",
    "SessionPage",
    "SessionView",
    "SessionWithTraces",
    "TraceBatch",
    "TraceDetail",
    "TracePage",
    "TraceRecord",
    "TraceView",
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


# ----------------------------------------------------------------------------------- reads


class PageMeta(Payload):
    page: int
    limit: int
    total_items: int
    total_pages: int

    @classmethod
    def of(cls, page: int, limit: int, total: int) -> PageMeta:
        """Page ``page`` of ``limit`` items among ``total``."""
        return cls(page=page, limit=limit, total_items=total, total_pages=-(-total // limit))


class _Window(Payload):
    project_id: str
    environment: list[str] = Field(default_factory=list)
    from_timestamp: datetime | None = None
    to_timestamp: datetime | None = None


class ListTraces(_Window):
    user_id: str | None = None
    session_id: str | None = None
    name: str | None = None
    tags: list[str] = Field(default_factory=list, description="Traces having all of them.")
    release: str | None = None
    version: str | None = None
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class GetTrace(Payload):
    project_id: str
    id: str


class ListObservations(_Window):
    trace_id: str | None = None
    type: ObservationType | None = None
    name: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    level: ObservationLevel | None = None
    parent_observation_id: str | None = None
    version: str | None = None
    cursor: str | None = Field(default=None, description="From the previous page's meta.")
    limit: int = Field(default=50, ge=1, le=1000)


class ListSessions(_Window):
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class GetSession(Payload):
    project_id: str
    id: str


class ListScores(_Window):
    id: list[str] = Field(default_factory=list)
    name: str | None = None
    source: ScoreSource | None = None
    data_type: ScoreDataType | None = None
    trace_id: str | None = None
    observation_id: str | None = None
    session_id: str | None = None
    dataset_run_id: str | None = None
    user_id: str | None = None
    config_id: str | None = None
    queue_id: str | None = None
    value_min: float | None = None
    value_max: float | None = None
    cursor: str | None = None
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class TraceView(Payload):
    """A stored trace: every merged field, plus aggregates of its observations."""

    id: str
    project_id: str
    timestamp: datetime
    name: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    input: Any = None
    output: Any = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    public: bool = False
    release: str | None = None
    version: str | None = None
    environment: str = "default"
    run_uuid: str | None = None
    created_at: datetime
    updated_at: datetime
    latency: float | None = Field(default=None, description="Seconds, first start to last end.")
    total_cost: float = 0.0
    observation_ids: list[str] = Field(default_factory=list)
    score_ids: list[str] = Field(default_factory=list)


class ObservationView(Payload):
    id: str
    project_id: str
    trace_id: str
    type: ObservationType
    parent_observation_id: str | None = None
    name: str | None = None
    start_time: datetime
    end_time: datetime | None = None
    completion_start_time: datetime | None = None
    input: Any = None
    output: Any = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    level: ObservationLevel = ObservationLevel.DEFAULT
    status_message: str | None = None
    version: str | None = None
    release: str | None = None
    environment: str = "default"
    model: str | None = None
    model_parameters: dict[str, Any] = Field(default_factory=dict)
    usage_details: dict[str, int] = Field(default_factory=dict)
    cost_details: dict[str, float] = Field(default_factory=dict)
    cost_source: Literal["client", "computed", "none"] = "none"
    prompt_name: str | None = None
    prompt_version: int | None = None
    experiment: ExperimentLink | None = None
    created_at: datetime
    updated_at: datetime


class ScoreView(Payload):
    id: str
    project_id: str
    name: str
    data_type: ScoreDataType
    value: float | None = None
    string_value: str | None = None
    source: ScoreSource
    trace_id: str | None = None
    observation_id: str | None = None
    session_id: str | None = None
    dataset_run_id: str | None = None
    comment: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    config_id: str | None = None
    queue_id: str | None = None
    environment: str = "default"
    timestamp: datetime
    created_at: datetime
    updated_at: datetime


class TraceDetail(Payload):
    trace: TraceView
    observations: list[ObservationView]
    scores: list[ScoreView]


class TracePage(Payload):
    data: list[TraceView]
    meta: PageMeta


class ObservationPage(Payload):
    data: list[ObservationView]
    cursor: str | None = Field(default=None, description="Next page; none on the last.")


class ScorePage(Payload):
    data: list[ScoreView]
    meta: PageMeta
    cursor: str | None = None


class SessionView(Payload):
    id: str
    project_id: str
    created_at: datetime
    environment: str = "default"
    trace_ids: list[str] = Field(default_factory=list)


class SessionPage(Payload):
    data: list[SessionView]
    meta: PageMeta


class SessionWithTraces(Payload):
    session: SessionView
    traces: list[TraceView]
