"""``/api/v1/{owner}/{project}/evals``: evaluator templates (LLM-as-a-judge and code), rules
(create, list, activate, deactivate) and their jobs (by rule and state, one with why it
failed)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events.evaluators import (
    CodeRuntime,
    CreateEvalRule,
    CreateEvalTemplate,
    EvalJob,
    EvalJobList,
    EvalRule,
    EvalRuleList,
    EvalTemplate,
    EvalTemplateList,
    EvaluateDatasetRun,
    GetEvalJob,
    JobState,
    ListEvalJobs,
    ListEvalRules,
    ListEvalTemplates,
    OfflineEvaluation,
    RuleFilter,
    SetRuleActive,
    TemplateKind,
)
from axonal_events.rpcs import Evaluation
from axonal_traces.values import error_reason

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/evals", tags=["evaluators"], responses=ERRORS)


class EvalTemplateBody(BaseModel):
    """An evaluator: a judge prompt (inline with ``{{variables}}``, or a registry prompt), or
    ``code`` (``kind: code``): Python defining ``evaluate(**variables)``, run as a job."""

    model_config = ConfigDict(extra="forbid")

    name: str
    kind: TemplateKind = "llm"
    prompt: str | None = None
    prompt_name: str | None = None
    prompt_label: str = "production"
    code: str | None = None
    runtime: CodeRuntime = Field(default_factory=CodeRuntime)
    score_name: str | None = None
    description: str | None = None


class EvalRuleBody(BaseModel):
    """A rule: which targets (new traces or observations, or experiments' items) it takes,
    and what it does with each: score with a template, or send to an annotation queue."""

    model_config = ConfigDict(extra="forbid")

    name: str
    template: str | None = Field(default=None, description="The template's name or id.")
    queue: str | None = Field(default=None, description="An annotation queue's id or name.")
    connection: str | None = Field(
        default=None, description="The LLM connection's provider name (LLM templates)."
    )
    model: str | None = None
    target: Literal["trace", "observation"] = "trace"
    filter: RuleFilter = Field(default_factory=RuleFilter)
    mapping: dict[str, str] = Field(default_factory=dict)
    sampling: float = 1.0
    delay_seconds: float = 0.0
    max_concurrency: int = 8
    max_per_minute: int | None = None
    active: bool = True


def _invalid(exc: ValidationError) -> ApiError:
    return ApiError(400, "invalid", error_reason(exc))


def _build(model: type[Any], fields: dict[str, Any]) -> Any:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise _invalid(exc) from None


@router.get("/templates", summary="The project's judge templates")
async def list_templates(gw: GatewayDep, owner: Owner, project: Project) -> EvalTemplateList:
    project_id = await project_id_of(gw, owner, project)
    return await gw.call(Evaluation.list_eval_templates, ListEvalTemplates(project_id=project_id))


@router.post("/templates", status_code=201, summary="Create a judge template")
async def create_template(
    gw: GatewayDep, owner: Owner, project: Project, body: EvalTemplateBody
) -> EvalTemplate:
    project_id = await project_id_of(gw, owner, project)
    request = _build(CreateEvalTemplate, {"project_id": project_id, **body.model_dump()})
    return await gw.call(Evaluation.create_eval_template, request)


@router.get("/rules", summary="The project's online evaluation rules")
async def list_rules(gw: GatewayDep, owner: Owner, project: Project) -> EvalRuleList:
    project_id = await project_id_of(gw, owner, project)
    return await gw.call(Evaluation.list_eval_rules, ListEvalRules(project_id=project_id))


@router.post("/rules", status_code=201, summary="Create an online evaluation rule")
async def create_rule(
    gw: GatewayDep, owner: Owner, project: Project, body: EvalRuleBody
) -> EvalRule:
    project_id = await project_id_of(gw, owner, project)
    fields = {"project_id": project_id, "project": f"{owner}/{project}", **body.model_dump()}
    return await gw.call(Evaluation.create_eval_rule, _build(CreateEvalRule, fields))


@router.post("/rules/{rule}/{verb}", summary="Activate or deactivate a rule")
async def set_rule_active(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    rule: str,
    verb: Literal["activate", "deactivate"],
) -> EvalRule:
    project_id = await project_id_of(gw, owner, project)
    request = SetRuleActive(project_id=project_id, id=rule, active=verb == "activate")
    return await gw.call(Evaluation.set_eval_rule_active, request)


@router.post(
    "/rules/{rule}/dataset-runs/{dataset_run_id}",
    summary="Judge every item of a dataset run with the rule's evaluator (offline)",
)
async def evaluate_dataset_run(
    gw: GatewayDep, owner: Owner, project: Project, rule: str, dataset_run_id: str
) -> OfflineEvaluation:
    project_id = await project_id_of(gw, owner, project)
    request = EvaluateDatasetRun(project_id=project_id, rule=rule, dataset_run_id=dataset_run_id)
    return await gw.call(Evaluation.evaluate_dataset_run, request)


@router.get("/jobs", summary="Evaluation jobs, newest first, by rule and state")
async def list_jobs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    rule: str | None = None,
    state: JobState | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> EvalJobList:
    project_id = await project_id_of(gw, owner, project)
    query = ListEvalJobs(project_id=project_id, rule_id=rule, state=state, limit=limit)
    return await gw.call(Evaluation.list_eval_jobs, query)


@router.get("/jobs/{job_id}", summary="One job: its state, score or why it failed")
async def get_job(gw: GatewayDep, owner: Owner, project: Project, job_id: str) -> EvalJob:
    project_id = await project_id_of(gw, owner, project)
    return await gw.call(Evaluation.get_eval_job, GetEvalJob(project_id=project_id, id=job_id))
