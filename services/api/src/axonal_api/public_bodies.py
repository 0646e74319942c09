"""The Langfuse-compatible answers of ``/api/public`` (camelCase JSON), as typed models.

They differ from the tracking service's views (``axonal_events.traces``): Langfuse's names,
the derived fields its SDK reads (latency, usage totals, calculated costs, ``htmlPath``), and
ids where the views hold lists. Each model documents one answer in ``docs/openapi.json`` and is
built from a view with ``of``. User data (input, output, metadata) is returned as stored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from axonal_events.api_keys import KeyProject
from axonal_events.llm_models import ModelDefinition
from axonal_events.trace_reads import ObservationView, PageMeta, ScoreView, SessionView, TraceView
from axonal_events.traces import (
    ExperimentLink,
    ObservationLevel,
    ObservationType,
    ScoreDataType,
    ScoreSource,
)

__all__ = [
    "CursorMeta",
    "Cursored",
    "LangfuseExperiment",
    "LangfuseListedScore",
    "LangfuseModel",
    "LangfuseObservation",
    "LangfuseScore",
    "LangfuseSession",
    "LangfuseSessionDetail",
    "LangfuseTrace",
    "LangfuseTraceDetail",
    "LangfuseUsage",
    "PageInfo",
    "Paged",
]


T = TypeVar("T")


class Camel(BaseModel):
    """Answered with camelCase keys; built in Python with snake_case names."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class PageInfo(Camel):
    page: int
    limit: int
    total_items: int
    total_pages: int

    @classmethod
    def of(cls, meta: PageMeta) -> PageInfo:
        return cls.model_validate(meta.model_dump())


class CursorMeta(Camel):
    cursor: str | None = Field(default=None, description="The next page; none on the last.")


class Paged(Camel, Generic[T]):
    """One page of ``data``, with the page number, size and totals in ``meta``."""

    data: list[T]
    meta: PageInfo


class Cursored(Camel, Generic[T]):
    """One page of ``data``; ``meta.cursor`` asks for the next one."""

    data: list[T]
    meta: CursorMeta


class LangfuseExperiment(Camel):
    id: str
    name: str | None = None
    description: str | None = None
    metadata: Any = None
    dataset_id: str | None = None
    item_id: str | None = None
    item_version: str | None = None
    item_metadata: Any = None
    item_root_observation_id: str | None = None
    item_expected_output: Any = None

    @classmethod
    def of(cls, link: ExperimentLink) -> LangfuseExperiment:
        return cls.model_validate(link.model_dump())


class LangfuseUsage(Camel):
    input: int = 0
    output: int = 0
    total: int = 0
    unit: Literal["TOKENS"] = "TOKENS"


class LangfuseObservation(Camel):
    """An observation as Langfuse's v1 reads answer it (in a trace's details)."""

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
    prompt_name: str | None = None
    prompt_version: int | None = None
    prompt_id: str | None = None
    model_id: str | None = None
    input_price: float | None = None
    output_price: float | None = None
    total_price: float | None = None
    experiment: LangfuseExperiment | None = None
    created_at: datetime
    updated_at: datetime
    usage: LangfuseUsage
    calculated_input_cost: float | None = None
    calculated_output_cost: float | None = None
    calculated_total_cost: float | None = None
    latency: float | None = Field(default=None, description="Seconds from start to end.")
    time_to_first_token: float | None = Field(default=None, description="Seconds.")

    @classmethod
    def of(cls, view: ObservationView) -> LangfuseObservation:
        usage, cost, start = view.usage_details, view.cost_details, view.start_time
        first_token = view.completion_start_time
        fields = view.model_dump(exclude={"experiment", "cost_source", "model_id"})
        return cls(
            **fields,
            experiment=LangfuseExperiment.of(view.experiment) if view.experiment else None,
            usage=LangfuseUsage(
                input=usage.get("input", 0),
                output=usage.get("output", 0),
                total=usage.get("total", 0),
            ),
            model_id=view.model_id,
            prompt_id=view.linked_prompt_id(),
            input_price=view.model_prices.get("input"),
            output_price=view.model_prices.get("output"),
            total_price=view.model_prices.get("total"),
            calculated_input_cost=cost.get("input"),
            calculated_output_cost=cost.get("output"),
            calculated_total_cost=cost.get("total", sum(cost.values()) if cost else None),
            latency=(view.end_time - start).total_seconds() if view.end_time else None,
            time_to_first_token=(first_token - start).total_seconds() if first_token else None,
        )


class LangfuseScore(Camel):
    id: str
    project_id: str
    name: str
    data_type: ScoreDataType
    value: float | None = Field(
        default=None, description="Numeric; 1/0 for a boolean, 0 for a label (none for text)."
    )
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
    author_user_id: str | None = None

    @classmethod
    def of(cls, view: ScoreView) -> LangfuseScore:
        score = cls.model_validate(view.model_dump(exclude={"trace"}))
        if view.value is None and view.data_type is not ScoreDataType.TEXT:
            score.value = 0.0  # a label without a config, as Langfuse stores it
        return score


class LangfuseScoreTrace(Camel):
    user_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    environment: str | None = None
    session_id: str | None = None


class LangfuseListedScore(LangfuseScore):
    """A score in ``/v2/scores``: with its trace's user, tags, environment and session."""

    trace: LangfuseScoreTrace | None = Field(
        default=None, description="None without the ``trace`` field group or a stored trace."
    )

    @classmethod
    def listed(cls, view: ScoreView, *, with_trace: bool) -> LangfuseListedScore:
        score = LangfuseScore.of(view).model_dump()
        trace = view.trace.model_dump() if with_trace and view.trace else None
        return cls.model_validate(score | {"trace": trace})


class _TraceFields(Camel):
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
    created_at: datetime
    updated_at: datetime
    latency: float | None = Field(default=None, description="Seconds, first start to last end.")
    total_cost: float = 0.0
    html_path: str
    bookmarked: bool = False
    external_id: str | None = None
    run_uuid: str | None = Field(default=None, description="The Axonal run it belongs to.")

    @staticmethod
    def fields_of(view: TraceView, project: KeyProject) -> dict[str, Any]:
        fields = view.model_dump(exclude={"observation_ids", "score_ids"})
        return fields | {"html_path": f"/project/{project.id}/traces/{view.id}"}


class LangfuseTrace(_TraceFields):
    """A trace in a list: its observations and scores by id."""

    observations: list[str] = Field(default_factory=list)
    scores: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, view: TraceView, project: KeyProject) -> LangfuseTrace:
        fields = cls.fields_of(view, project)
        return cls(**fields, observations=view.observation_ids, scores=view.score_ids)


class LangfuseTraceDetail(_TraceFields):
    """One trace with its observations and scores in full."""

    observations: list[LangfuseObservation]
    scores: list[LangfuseScore]

    @classmethod
    def of(
        cls,
        view: TraceView,
        project: KeyProject,
        observations: list[ObservationView],
        scores: list[ScoreView],
    ) -> LangfuseTraceDetail:
        return cls(
            **cls.fields_of(view, project),
            observations=[LangfuseObservation.of(o) for o in observations],
            scores=[LangfuseScore.of(s) for s in scores],
        )


class LangfuseSession(Camel):
    id: str
    project_id: str
    created_at: datetime
    environment: str = "default"

    @classmethod
    def of(cls, view: SessionView) -> LangfuseSession:
        return cls.model_validate(view.model_dump(exclude={"trace_ids"}))


class LangfuseSessionDetail(LangfuseSession):
    traces: list[LangfuseTrace]


class LangfuseTokenizerConfig(Camel):
    tokenizer_model: str


class LangfusePrice(Camel):
    price: float


class LangfuseTier(Camel):
    id: str
    name: str
    is_default: bool
    priority: int
    conditions: list[dict[str, Any]]
    prices: dict[str, float]


class LangfuseModel(Camel):
    """A model definition as Langfuse's ``Model``: flat prices and tiers."""

    id: str
    model_name: str
    match_pattern: str
    start_date: datetime | None = None
    unit: str
    input_price: float | None = None
    output_price: float | None = None
    total_price: float | None = None
    tokenizer_id: Literal["openai"] | None = None
    tokenizer_config: LangfuseTokenizerConfig | None = None
    is_langfuse_managed: bool
    created_at: datetime | None = None
    prices: dict[str, LangfusePrice]
    pricing_tiers: list[LangfuseTier]

    @classmethod
    def of(cls, definition: ModelDefinition) -> LangfuseModel:
        prices, tokenizer = definition.prices, definition.tokenizer_model
        return cls(
            id=definition.id,
            model_name=definition.model_name,
            match_pattern=definition.match_pattern,
            start_date=definition.start_date,
            unit=definition.unit.value,
            input_price=prices.get("input"),
            output_price=prices.get("output"),
            total_price=prices.get("total"),
            tokenizer_id="openai" if tokenizer else None,
            tokenizer_config=LangfuseTokenizerConfig(tokenizer_model=tokenizer)
            if tokenizer
            else None,
            is_langfuse_managed=definition.managed,
            created_at=definition.created_at,
            prices={usage: LangfusePrice(price=price) for usage, price in prices.items()},
            pricing_tiers=[
                LangfuseTier(
                    id=f"{definition.id}:{tier.name}",
                    name=tier.name,
                    is_default=tier.is_default,
                    priority=tier.priority,
                    conditions=[
                        {to_camel(k): v for k, v in c.model_dump(mode="json").items()}
                        for c in tier.conditions
                    ],
                    prices=tier.prices,
                )
                for tier in definition.tiers
            ],
        )
