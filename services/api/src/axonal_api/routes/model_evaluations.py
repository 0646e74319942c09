"""``/api/v1/{owner}/{project}/models/{model}``: evaluation scores of model versions and the
promotion gates that check them.

An evaluation run (a job that scores a version on a dataset version) records its scores
with ``tracking.log_model_scores``; an alias with gates (``production`` requires ``auc >=
0.9``) then takes only a version whose latest scores meet them. The registry emits
``model.version.evaluated`` for each recording.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project, get_run_checked
from axonal_events.model_evaluations import (
    ModelVersionScores,
    PromotionGate,
    PromotionGates,
    ReadModelScores,
    RecordModelScores,
    ScoreName,
    ScoreValue,
    SetPromotionGates,
)
from axonal_events.model_registry import ALIAS_PATTERN, MODEL_NAME_PATTERN, ModelRef
from axonal_events.rpcs import Registry

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/{owner}/{project}/models/{model}", tags=["models"], responses=ERRORS
)
ModelName = Annotated[str, Path(pattern=MODEL_NAME_PATTERN, description="The model's name.")]
Ref = Annotated[str, Path(max_length=50, description="A version number or an alias.")]
Alias = Annotated[str, Path(pattern=ALIAS_PATTERN, description="The alias the gates hold.")]


class ScoresBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_uuid: str = Field(pattern=r"^[0-9a-fA-F-]{32,36}$", description="The evaluation run.")
    dataset: str | None = Field(
        default=None, max_length=300, description="The dataset version: name@sha256."
    )
    scores: dict[ScoreName, ScoreValue] = Field(min_length=1, max_length=100)


class GatesBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gates: list[PromotionGate] = Field(max_length=20, description="None: no requirement.")


@router.post("/versions/{ref}/scores", status_code=201, summary="Record evaluation scores")
async def record_scores(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, ref: Ref, body: ScoresBody
) -> ModelVersionScores:
    run = await get_run_checked(gw, owner, project, body.run_uuid)
    request = RecordModelScores(
        project=f"{owner}/{project}",
        model=model,
        ref=ref,
        run_uuid=run.uuid,
        dataset=body.dataset,
        scores=body.scores,
    )
    return await gw.call(Registry.record_scores, request)


@router.get("/versions/{ref}/scores", summary="A version's evaluation scores, newest first")
async def version_scores(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, ref: Ref
) -> ModelVersionScores:
    request = ReadModelScores(project=f"{owner}/{project}", model=model, ref=ref)
    return await gw.call(Registry.version_scores, request)


@router.get("/gates", summary="The scores each alias requires")
async def gates(gw: GatewayDep, owner: Owner, project: Project, model: ModelName) -> PromotionGates:
    return await gw.call(Registry.gates, ModelRef(project=f"{owner}/{project}", model=model))


@router.put("/gates/{alias}", summary="Set the scores an alias requires")
async def set_gates(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, alias: Alias, body: GatesBody
) -> PromotionGates:
    request = SetPromotionGates(
        project=f"{owner}/{project}", model=model, alias=alias, gates=body.gates
    )
    return await gw.call(Registry.set_gates, request)
