"""LLM connections, evaluator templates (LLM-as-a-judge and code), evaluation rules and their
jobs."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import Field

from axonal_events.base import EventData, Payload
from axonal_events.trace_reads import PageMeta

__all__ = [
    "JOB_STATES",
    "CodeRuntime",
    "CreateEvalRule",
    "CreateEvalTemplate",
    "DeleteLlmConnection",
    "DeletedLlmConnection",
    "EvalJob",
    "EvalJobList",
    "EvalRule",
    "EvalRuleList",
    "EvalTemplate",
    "EvalTemplateList",
    "EvaluateDatasetRun",
    "GetEvalJob",
    "JobState",
    "ListEvalJobs",
    "ListEvalRules",
    "ListEvalTemplates",
    "ListLlmConnections",
    "LlmAdapter",
    "LlmConnection",
    "LlmConnectionPage",
    "OfflineEvaluation",
    "RuleFilter",
    "RunEvalJob",
    "ScoreCondition",
    "SetRuleActive",
    "TemplateKind",
    "UpsertLlmConnection",
]

LlmAdapter = Literal["openai", "anthropic"]
JobState = Literal["pending", "running", "succeeded", "failed"]
JOB_STATES: tuple[JobState, ...] = ("pending", "running", "succeeded", "failed")
TemplateKind = Literal["llm", "code"]


class UpsertLlmConnection(Payload):
    """Create or replace the project's connection named ``provider``."""

    project_id: str = Field(min_length=1)
    provider: str = Field(min_length=1, max_length=200)
    adapter: LlmAdapter
    secret_key: str = Field(min_length=1)
    base_url: str | None = None
    custom_models: list[str] = Field(default_factory=list)
    with_default_models: bool = True
    extra_headers: dict[str, str] = Field(default_factory=dict)
    config: dict[str, Any] | None = None


class LlmConnection(Payload):
    """A connection as read: the secret masked, extra header values left out."""

    id: str
    project_id: str
    provider: str
    adapter: LlmAdapter
    display_secret_key: str
    base_url: str | None = None
    custom_models: list[str]
    with_default_models: bool
    extra_header_keys: list[str]
    config: dict[str, Any] | None = None
    created_at: datetime
    updated_at: datetime


class ListLlmConnections(Payload):
    project_id: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class LlmConnectionPage(Payload):
    data: list[LlmConnection]
    meta: PageMeta


class DeleteLlmConnection(Payload):
    project_id: str
    id: str


class DeletedLlmConnection(Payload):
    message: str


class CodeRuntime(Payload):
    """How a code evaluator's job runs: the interpreter, its image, and its limits."""

    python: str = Field(
        default="python3",
        min_length=1,
        description="The interpreter: on a local agent a name on its PATH or a path; in a "
        "container, of the image.",
    )
    image: str = Field(default="python:3.11-slim", min_length=1)
    timeout_seconds: float = Field(default=120.0, gt=0, le=3600.0)
    cpu: str = Field(default="1", description="The job's cpu limit (cores).")
    memory: str = Field(default="1Gi", description="The job's memory limit.")


class CreateEvalTemplate(Payload):
    """An evaluator: an LLM-as-a-judge prompt (inline ``prompt`` or a registry prompt by name
    and label), or ``code``, Python source defining ``evaluate(**variables)``."""

    project_id: str = Field(min_length=1)
    name: str = Field(min_length=1, max_length=200)
    kind: TemplateKind = "llm"
    prompt: str | None = Field(default=None, description="Text with {{variables}}.")
    prompt_name: str | None = Field(default=None, description="A registry prompt instead.")
    prompt_label: str = "production"
    code: str | None = Field(
        default=None,
        description="Python source defining evaluate(**variables) -> score, (score, reasoning) "
        "or {score, reasoning}; run as a job, never in a service.",
    )
    runtime: CodeRuntime = Field(default_factory=CodeRuntime, description="Of a code evaluator.")
    score_name: str | None = Field(default=None, description="Defaults to the template name.")
    description: str | None = None


class EvalTemplate(Payload):
    id: str
    project_id: str
    name: str
    kind: TemplateKind = "llm"
    prompt: str | None = None
    prompt_name: str | None = None
    prompt_label: str = "production"
    code: str | None = None
    runtime: CodeRuntime = Field(default_factory=CodeRuntime)
    score_name: str
    description: str | None = None
    created_at: datetime


class ListEvalTemplates(Payload):
    project_id: str


class EvalTemplateList(Payload):
    data: list[EvalTemplate]


class ScoreCondition(Payload):
    """A score the trace must carry: by name, compared with ``value`` (a number, or the label
    of a categorical score with ``=`` and ``!=``)."""

    name: str = Field(min_length=1)
    operator: Literal["<", "<=", ">", ">=", "=", "!="] = "="
    value: float | str


class RuleFilter(Payload):
    """What a rule evaluates; every given condition must hold (an empty list: any)."""

    names: list[str] = Field(default_factory=list, description="Trace or observation names.")
    tags: list[str] = Field(default_factory=list, description="Tags the trace must all carry.")
    environments: list[str] = Field(default_factory=list)
    types: list[str] = Field(default_factory=list, description="Observation types (GENERATION).")
    metadata: dict[str, Any] = Field(default_factory=dict, description="Equal metadata values.")
    scores: list[ScoreCondition] = Field(
        default_factory=list,
        description="Scores the trace must carry (a trace matches when the last one arrives).",
    )
    datasets: list[str] = Field(
        default_factory=list,
        description="Dataset names: the rule then evaluates their experiments' items as they "
        "are linked, instead of new production traces.",
    )


class CreateEvalRule(Payload):
    """An evaluation rule: which targets it takes (new traces or observations, or the items
    of experiments), and what it does with each: score it with a template, or send it to an
    annotation queue."""

    project_id: str = Field(min_length=1)
    project: str = Field(min_length=1, description="``owner/name`` of the project.")
    name: str = Field(min_length=1, max_length=200)
    template: str | None = Field(
        default=None, description="The template's name or id (unless the rule sends to a queue)."
    )
    queue: str | None = Field(
        default=None, description="An annotation queue's id or name: send targets there."
    )
    connection: str | None = Field(
        default=None, description="The LLM connection's provider name (LLM templates)."
    )
    model: str | None = Field(default=None, description="The judge model (LLM templates).")
    target: Literal["trace", "observation"] = "trace"
    filter: RuleFilter = Field(default_factory=RuleFilter)
    mapping: dict[str, str] = Field(
        default_factory=dict, description="Template variable -> selector into the target."
    )
    sampling: float = Field(default=1.0, ge=0.0, le=1.0)
    delay_seconds: float = Field(default=0.0, ge=0.0, le=3600.0)
    max_concurrency: int = Field(default=8, ge=1, le=1000)
    max_per_minute: int | None = Field(
        default=None, ge=1, description="Judge calls a minute (per replica); none: no cap."
    )
    active: bool = True


class EvalRule(Payload):
    id: str
    project_id: str
    project: str
    name: str
    template_id: str | None = None
    template: str | None = None
    queue_id: str | None = None
    connection: str | None = None
    model: str | None = None
    target: Literal["trace", "observation"]
    filter: RuleFilter
    mapping: dict[str, str]
    sampling: float
    delay_seconds: float
    max_concurrency: int
    max_per_minute: int | None = None
    active: bool
    created_at: datetime
    updated_at: datetime


class ListEvalRules(Payload):
    project_id: str


class EvalRuleList(Payload):
    data: list[EvalRule]


class SetRuleActive(Payload):
    """Activate or deactivate a rule; activating needs its connection to exist."""

    project_id: str
    id: str = Field(description="The rule's id or name.")
    active: bool


class EvalJob(Payload):
    """One evaluation of one target by one rule, and how it went."""

    id: str
    project_id: str
    rule_id: str
    trace_id: str
    observation_id: str | None = None
    state: JobState
    reason: str | None = Field(default=None, description="Why it failed.")
    answer: Any = Field(default=None, description="The judge's last answer, kept on failure.")
    dataset_item_id: str | None = Field(default=None, description="Of an experiment's item.")
    dataset_run_id: str | None = None
    run_uuid: str | None = Field(default=None, description="The run of a code evaluator.")
    queue_item_id: str | None = Field(default=None, description="Where a queue rule sent it.")
    score_id: str | None = None
    score_value: float | None = None
    attempts: int = 0
    due_at: datetime
    created_at: datetime
    updated_at: datetime


class ListEvalJobs(Payload):
    project_id: str
    rule_id: str | None = Field(default=None, description="A rule's id or name.")
    state: JobState | None = None
    limit: int = Field(default=50, ge=1, le=1000)


class EvalJobList(Payload):
    data: list[EvalJob]


class GetEvalJob(Payload):
    project_id: str
    id: str


class RunEvalJob(EventData):
    """Command to the evaluation service itself: run job ``job_id`` once it is due."""

    type_name: ClassVar[str] = "evaluation.run_job"

    job_id: str = Field(min_length=1)

    def subject_id(self) -> str | None:
        return self.job_id


class EvaluateDatasetRun(Payload):
    """Apply a rule's evaluator to every item of a dataset run (offline evaluation)."""

    project_id: str = Field(min_length=1)
    rule: str = Field(min_length=1, description="The rule's name or id.")
    dataset_run_id: str = Field(min_length=1)


class OfflineEvaluation(Payload):
    """The jobs of a dataset run's items: one per item, made now or before."""

    rule_id: str
    dataset_run_id: str
    items: int = Field(description="Items of the run.")
    job_ids: list[str] = Field(description="Their jobs, new or already there.")
    created: int = Field(description="Jobs made by this request.")
