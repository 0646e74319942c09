"""Reads of LLM traces: the requests and replies of the tracking service's trace RPCs."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BeforeValidator, Field

from axonal_events.base import Payload
from axonal_events.ids import prompt_version_id
from axonal_events.traces import (
    ExperimentLink,
    ObservationLevel,
    ObservationType,
    ScoreDataType,
    ScoreSource,
)

__all__ = [
    "GetObservation",
    "GetSession",
    "GetTrace",
    "ListObservations",
    "ListScores",
    "ListSessions",
    "ListTraces",
    "ListUsers",
    "ObservationPage",
    "ObservationView",
    "Order",
    "PageMeta",
    "ScorePage",
    "ScoreTrace",
    "ScoreView",
    "SessionPage",
    "SessionView",
    "SessionWithTraces",
    "TraceDetail",
    "TraceOrder",
    "TracePage",
    "TraceView",
    "UserPage",
    "UserView",
    "ValueCondition",
]


def _listed(value: Any) -> Any:
    """A single value as the list of it."""
    return [value] if isinstance(value, str) else value


V = TypeVar("V")
#: A list filter, also given as one value.
AnyOf = Annotated[list[V], BeforeValidator(_listed)]


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


#: The trace columns a trace list may be ordered by (Langfuse's ``orderBy`` fields).
TraceOrder = Literal[
    "id", "timestamp", "name", "user_id", "release", "version", "public", "bookmarked", "session_id"
]


class Order(Payload):
    """A list's order: one column, ascending or descending."""

    field: TraceOrder
    descending: bool = True


class ListTraces(_Window):
    user_id: str | None = None
    session_id: str | None = None
    name: str | None = None
    tags: list[str] = Field(default_factory=list, description="Traces having all of them.")
    release: str | None = None
    version: str | None = None
    score_name: str | None = Field(default=None, description="Traces with a score of this name.")
    score_min: float | None = Field(default=None, description="Its value at least this.")
    score_max: float | None = Field(default=None, description="Its value at most this.")
    order: Order | None = Field(default=None, description="Default: the newest first.")
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class ListUsers(_Window):
    """The users named by traces (of the window, by trace time), the most recently seen first."""

    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class GetTrace(Payload):
    project_id: str
    id: str


class GetObservation(Payload):
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
    is_root_observation: bool | None = Field(
        default=None, description="Only observations without (or only with) a parent."
    )
    version: str | None = None
    cursor: str | None = Field(default=None, description="From the previous page's meta.")
    page: int | None = Field(default=None, ge=1, description="Numbered pages instead.")
    limit: int = Field(default=50, ge=1, le=1000)


class ListSessions(_Window):
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class GetSession(Payload):
    project_id: str
    id: str


class ValueCondition(Payload):
    """A comparison of a score's numeric value with ``value``."""

    operator: Literal["<", ">", "<=", ">=", "=", "!="]
    value: float


class ListScores(_Window):
    """Scores matching every filter given: a list filter matches any of its values."""

    id: AnyOf[str] = Field(default_factory=list)
    name: AnyOf[str] = Field(default_factory=list)
    source: AnyOf[ScoreSource] = Field(default_factory=list)
    data_type: AnyOf[ScoreDataType] = Field(default_factory=list)
    trace_id: AnyOf[str] = Field(default_factory=list)
    observation_id: AnyOf[str] = Field(default_factory=list)
    session_id: AnyOf[str] = Field(default_factory=list)
    dataset_run_id: AnyOf[str] = Field(default_factory=list)
    user_id: str | None = None
    config_id: AnyOf[str] = Field(default_factory=list)
    queue_id: AnyOf[str] = Field(default_factory=list)
    author_user_id: AnyOf[str] = Field(
        default_factory=list, description="Scores are made by API keys: none has an author."
    )
    values: list[float] = Field(default_factory=list, description="Numeric (boolean 1/0).")
    labels: list[str] = Field(default_factory=list, description="Categorical values.")
    value_min: float | None = None
    value_max: float | None = None
    value_is: ValueCondition | None = None
    trace_tags: list[str] = Field(
        default_factory=list, description="Scores of traces having all of these tags."
    )
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
    input_tokens: int = Field(default=0, description="Of its observations, as the rest below.")
    output_tokens: int = 0
    total_tokens: int = Field(default=0, description="Each observation's total, else its sum.")
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
    total_cost: float = Field(default=0.0, description="``cost_details.total``, else their sum.")
    model_id: str | None = Field(default=None, description="The definition that priced it.")
    pricing_tier: str | None = Field(default=None, description="The tier that computed its cost.")
    model_prices: dict[str, float] = Field(
        default_factory=dict, description="Its definition's default prices, per usage type."
    )
    trace_name: str | None = Field(default=None, description="Of its trace, as the rest below.")
    user_id: str | None = None
    session_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    trace_release: str | None = None
    trace_public: bool = False

    def linked_prompt_id(self) -> str | None:
        """Langfuse's ``promptId``: the id of the prompt version the generation used."""
        if self.prompt_name is None or self.prompt_version is None:
            return None
        return prompt_version_id(self.project_id, self.prompt_name, self.prompt_version)


class ScoreTrace(Payload):
    """The trace a score is on, as a score list shows it."""

    user_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    environment: str | None = None
    session_id: str | None = None


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
    trace: ScoreTrace | None = Field(default=None, description="In score lists, when stored.")


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
    meta: PageMeta | None = Field(default=None, description="Of a numbered page.")


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
    trace_count: int = 0
    first_trace_at: datetime | None = None
    last_trace_at: datetime | None = None
    total_cost: float = Field(default=0.0, description="Of its traces' observations.")
    user_ids: list[str] = Field(default_factory=list, description="Of its traces, sorted.")


class SessionPage(Payload):
    data: list[SessionView]
    meta: PageMeta


class SessionWithTraces(Payload):
    session: SessionView
    traces: list[TraceView]


class UserView(Payload):
    """A user of traces: how many, when, and what their observations used and cost."""

    user_id: str
    trace_count: int
    first_seen: datetime
    last_seen: datetime
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    total_cost: float = 0.0


class UserPage(Payload):
    data: list[UserView]
    meta: PageMeta
