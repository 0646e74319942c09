"""Langfuse-compatible model definitions (``/api/public/models``) for the key's project.

Bodies and answers are Langfuse's camelCase shapes: the flat ``inputPrice``/``outputPrice``/
``totalPrice`` or ``pricingTiers``, and ``tokenizerId: openai`` with a ``tokenizerModel`` in
``tokenizerConfig``. The shipped definitions are listed after the project's own, as Langfuse's
managed ones; they cannot be deleted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel, to_snake

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep
from axonal_api.public_bodies import LangfuseModel, Paged, PageInfo
from axonal_events.llm_models import (
    DeleteModel,
    GetModel,
    ListModels,
    ModelSpec,
    UsageUnit,
)
from axonal_events.rpcs import Tracking
from axonal_traces.values import error_reason

__all__ = ["router"]

router = APIRouter(
    prefix="/api/public/models", tags=["model definitions"], responses=READ_RESPONSES
)


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class TokenizerConfig(_Camel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")
    tokenizer_model: str | None = None


class CreateModelBody(_Camel):
    """Langfuse's ``CreateModelRequest``."""

    model_name: str
    match_pattern: str
    start_date: datetime | None = None
    unit: UsageUnit = UsageUnit.TOKENS
    input_price: float | None = None
    output_price: float | None = None
    total_price: float | None = None
    pricing_tiers: list[dict[str, Any]] | None = None
    tokenizer_id: Literal["openai"] | None = Field(
        default=None, description="Only the openai (tiktoken) tokenizer is available."
    )
    tokenizer_config: TokenizerConfig | None = None


def _snake_keys(value: Any) -> Any:
    """A Langfuse tier (camelCase, conditions included) with the contract's snake_case keys;
    ``prices`` are usage types, kept as they are."""
    if isinstance(value, list):
        return [_snake_keys(item) for item in value]
    if isinstance(value, dict):
        return {
            to_snake(key): item if key == "prices" else _snake_keys(item)
            for key, item in value.items()
        }
    return value


def _tiers(body: CreateModelBody) -> list[dict[str, Any]]:
    if body.pricing_tiers:
        flat = (body.input_price, body.output_price, body.total_price)
        if any(price is not None for price in flat):
            raise ApiError(400, "invalid", "send either pricingTiers or the flat prices, not both")
        return [_snake_keys(tier) for tier in body.pricing_tiers]
    flat_prices = {
        "input": body.input_price,
        "output": body.output_price,
        "total": body.total_price,
    }
    prices = {k: v for k, v in flat_prices.items() if v is not None}
    if not prices:
        raise ApiError(400, "invalid", "a model needs prices: inputPrice, outputPrice, "
                       "totalPrice or pricingTiers")  # fmt: skip
    return [{"name": "Standard", "is_default": True, "prices": prices}]


@router.post("", summary="Create a model definition for the key's project")
async def create_model(
    gw: GatewayDep, project: KeyProjectDep, body: CreateModelBody
) -> LangfuseModel:
    config = body.tokenizer_config
    try:
        spec = ModelSpec.model_validate(
            {
                "project_id": project.id,
                "model_name": body.model_name,
                "match_pattern": body.match_pattern,
                "start_date": body.start_date,
                "unit": body.unit,
                "tiers": _tiers(body),
                "tokenizer_model": config.tokenizer_model if body.tokenizer_id and config else None,
            }
        )
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None
    return LangfuseModel.of(await gw.call(Tracking.create_model, spec))


@router.get("", summary="The project's model definitions, then the shipped ones")
async def list_models(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> Paged[LangfuseModel]:
    query = ListModels(project_id=project.id, page=page, limit=limit)
    found = await gw.call(Tracking.list_models, query)
    return Paged(data=[LangfuseModel.of(d) for d in found.data], meta=PageInfo.of(found.meta))


@router.get("/{model_id}", summary="One model definition")
async def get_model(gw: GatewayDep, project: KeyProjectDep, model_id: str) -> LangfuseModel:
    query = GetModel(project_id=project.id, id=model_id)
    return LangfuseModel.of(await gw.call(Tracking.get_model, query))


@router.delete("/{model_id}", status_code=204, summary="Delete one of the project's definitions")
async def delete_model(gw: GatewayDep, project: KeyProjectDep, model_id: str) -> Response:
    query = DeleteModel(project_id=project.id, id=model_id)
    await gw.call(Tracking.delete_model, query)
    return Response(status_code=204)
