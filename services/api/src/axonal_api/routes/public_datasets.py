"""Langfuse-compatible datasets and dataset items (``/api/public/v2/datasets``, the older
``/api/public/datasets`` and ``/api/public/dataset-items``) for the key's project.

Bodies and answers are Langfuse's camelCase shapes. Items are versioned: a write makes the
item's next version, and ``version`` (a timestamp) lists the items as they were then. An
item's ``input`` and ``expectedOutput`` must match its dataset's JSON Schemas (400 naming the
path and the problem). Dataset names may hold ``/`` folders, sent URL-encoded.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from axonal_api.deps import GatewayDep
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep, PublicError
from axonal_api.public_bodies import Camel, Paged, PageInfo
from axonal_events.datasets import (
    CreateDataset,
    Dataset,
    DatasetItem,
    DeleteDatasetItem,
    GetDataset,
    GetDatasetItem,
    ListDatasetItems,
    ListDatasets,
    UpsertDatasetItem,
)
from axonal_events.rpcs import Evaluation
from axonal_traces.values import error_reason

__all__ = [
    "Body",
    "DeletedResponse",
    "LangfuseDataset",
    "LangfuseDatasetItem",
    "Limit",
    "Page",
    "invalid",
    "router",
]

router = APIRouter(prefix="/api/public", tags=["datasets"], responses=READ_RESPONSES)

Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=1000)]


def invalid(exc: ValidationError) -> PublicError:
    return PublicError(400, error_reason(exc), "InvalidRequestError")


class Body(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class CreateDatasetBody(Body):
    """Langfuse's ``CreateDatasetRequest``."""

    name: str
    description: str | None = None
    metadata: Any = None
    input_schema: Any = None
    expected_output_schema: Any = None


class CreateDatasetItemBody(Body):
    """Langfuse's ``CreateDatasetItemRequest``: upserted on ``id``."""

    dataset_name: str
    input: Any = None
    expected_output: Any = None
    metadata: Any = None
    source_trace_id: str | None = None
    source_observation_id: str | None = None
    id: str | None = None
    status: Literal["ACTIVE", "ARCHIVED"] | None = None


class LangfuseDataset(Camel):
    """Langfuse's ``Dataset``."""

    id: str
    name: str
    description: str | None = None
    metadata: Any = None
    input_schema: dict[str, Any] | None = None
    expected_output_schema: dict[str, Any] | None = None
    project_id: str
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, found: Dataset) -> LangfuseDataset:
        return cls.model_validate(found.model_dump())


class LangfuseDatasetItem(Camel):
    """Langfuse's ``DatasetItem`` (``mediaReferences`` always a list: the SDK requires it)."""

    id: str
    status: Literal["ACTIVE", "ARCHIVED"]
    input: Any = None
    expected_output: Any = None
    metadata: Any = None
    source_trace_id: str | None = None
    source_observation_id: str | None = None
    dataset_id: str
    dataset_name: str
    created_at: datetime
    updated_at: datetime
    version: datetime
    media_references: list[dict[str, Any]] = Field(default_factory=list)

    @classmethod
    def of(cls, found: DatasetItem) -> LangfuseDatasetItem:
        return cls.model_validate(found.model_dump(exclude={"project_id"}))


class DeletedResponse(Camel):
    message: str


async def _create_dataset(
    gw: GatewayDep, project: KeyProjectDep, body: CreateDatasetBody
) -> LangfuseDataset:
    for field, schema in (
        ("inputSchema", body.input_schema),
        ("expectedOutputSchema", body.expected_output_schema),
    ):
        if schema is not None and not isinstance(schema, dict):
            raise PublicError(400, f"{field}: a JSON Schema is an object", "InvalidRequestError")
    try:
        request = CreateDataset(project_id=project.id, **body.model_dump())
    except ValidationError as exc:
        raise invalid(exc) from None
    return LangfuseDataset.of(await gw.call(Evaluation.create_dataset, request))


async def _list_datasets(
    gw: GatewayDep, project: KeyProjectDep, page: Page = 1, limit: Limit = 50
) -> Paged[LangfuseDataset]:
    query = ListDatasets(project_id=project.id, page=page, limit=limit)
    found = await gw.call(Evaluation.list_datasets, query)
    return Paged(data=[LangfuseDataset.of(d) for d in found.data], meta=PageInfo.of(found.meta))


async def _get_dataset(gw: GatewayDep, project: KeyProjectDep, name: str) -> LangfuseDataset:
    query = GetDataset(project_id=project.id, name=name)
    return LangfuseDataset.of(await gw.call(Evaluation.get_dataset, query))


for prefix in ("/v2/datasets", "/datasets"):
    router.add_api_route(
        prefix, _create_dataset, methods=["POST"], summary="Create or update a dataset"
    )
    router.add_api_route(prefix, _list_datasets, methods=["GET"], summary="The datasets")
    router.add_api_route(
        prefix + "/{name:path}", _get_dataset, methods=["GET"], summary="A dataset by name"
    )


@router.post("/dataset-items", summary="Create an item, or the next version of item `id`")
async def create_dataset_item(
    gw: GatewayDep, project: KeyProjectDep, body: CreateDatasetItemBody
) -> LangfuseDatasetItem:
    try:
        request = UpsertDatasetItem(project_id=project.id, **body.model_dump())
    except ValidationError as exc:
        raise invalid(exc) from None
    return LangfuseDatasetItem.of(await gw.call(Evaluation.upsert_dataset_item, request))


@router.get("/dataset-items", summary="Items, as they are or were at `version`")
async def list_dataset_items(
    gw: GatewayDep,
    project: KeyProjectDep,
    datasetName: str | None = None,  # noqa: N803
    sourceTraceId: str | None = None,  # noqa: N803
    sourceObservationId: str | None = None,  # noqa: N803
    version: datetime | None = None,
    page: Page = 1,
    limit: Limit = 50,
) -> Paged[LangfuseDatasetItem]:
    query = ListDatasetItems(
        project_id=project.id,
        dataset_name=datasetName,
        source_trace_id=sourceTraceId,
        source_observation_id=sourceObservationId,
        version=version,
        page=page,
        limit=limit,
    )
    found = await gw.call(Evaluation.list_dataset_items, query)
    data = [LangfuseDatasetItem.of(d) for d in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.get("/dataset-items/{item_id}", summary="An item's current version")
async def get_dataset_item(
    gw: GatewayDep, project: KeyProjectDep, item_id: str
) -> LangfuseDatasetItem:
    query = GetDatasetItem(project_id=project.id, id=item_id)
    return LangfuseDatasetItem.of(await gw.call(Evaluation.get_dataset_item, query))


@router.delete("/dataset-items/{item_id}", summary="Delete an item (earlier versions still read)")
async def delete_dataset_item(
    gw: GatewayDep, project: KeyProjectDep, item_id: str
) -> DeletedResponse:
    query = DeleteDatasetItem(project_id=project.id, id=item_id)
    found = await gw.call(Evaluation.delete_dataset_item, query)
    return DeletedResponse(message=found.message)
