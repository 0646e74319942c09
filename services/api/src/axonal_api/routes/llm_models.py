"""``/api/v1/{owner}/{project}/llm-models``: LLM model prices with the platform's auth (the CLI's).

The same tracking RPCs as the Langfuse-compatible ``/api/public/models``, in Axonal's own
shapes: a definition's prices are its tiers.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events.llm_models import (
    DeleteModel,
    ListModels,
    ModelDefinition,
    ModelPage,
    ModelSpec,
    ModelTerms,
)
from axonal_events.rpcs import Tracking

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/{owner}/{project}/llm-models", tags=["llm models"], responses=ERRORS
)


@router.get("", summary="The project's model definitions, then the shipped ones")
async def list_models(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ModelPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListModels(project_id=project_id, page=page, limit=limit)
    return await gw.call(Tracking.list_models, query)


@router.post("", status_code=201, summary="Define a model's prices for this project")
async def create_model(
    gw: GatewayDep, owner: Owner, project: Project, terms: ModelTerms
) -> ModelDefinition:
    project_id = await project_id_of(gw, owner, project)
    spec = ModelSpec(project_id=project_id, **terms.model_dump())
    return await gw.call(Tracking.create_model, spec)


@router.delete("/{model_id}", summary="Delete one of the project's definitions")
async def delete_model(
    gw: GatewayDep, owner: Owner, project: Project, model_id: str
) -> ModelDefinition:
    project_id = await project_id_of(gw, owner, project)
    query = DeleteModel(project_id=project_id, id=model_id)
    return await gw.call(Tracking.delete_model, query)
