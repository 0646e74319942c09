"""Datasets, their versioned items, dataset runs (experiments) and their items (the evaluation
service owns them).

Langfuse's model: a dataset is a named collection of items, unique per project, with optional
JSON Schemas its items' ``input`` and ``expected_output`` must match. Items are versioned: each
write keeps the previous version, and a read ``as_of`` a timestamp sees the items as they were
then. A dataset run (an experiment) links each dataset item it ran to the trace that ran it;
its id is the one the Langfuse SDK derives (``axonal_traces.experiments.experiment_id``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.trace_reads import PageMeta

__all__ = [
    "CompareRuns",
    "ComparisonCell",
    "ComparisonRow",
    "CreateDataset",
    "CreateRunItem",
    "Dataset",
    "DatasetItem",
    "DatasetItemPage",
    "DatasetPage",
    "DatasetRun",
    "DatasetRunPage",
    "DatasetRunWithItems",
    "DeleteDatasetItem",
    "DeleteDatasetRun",
    "Deleted",
    "ExperimentComparison",
    "ExperimentItemPage",
    "ExperimentPage",
    "ExperimentSummary",
    "GetDataset",
    "GetDatasetItem",
    "GetDatasetRun",
    "ItemStatus",
    "ListDatasetItems",
    "ListDatasetRuns",
    "ListDatasets",
    "ListExperimentItems",
    "ListExperiments",
    "ListRunItems",
    "RunItem",
    "RunItemPage",
    "UpsertDatasetItem",
]

ItemStatus = Literal["ACTIVE", "ARCHIVED"]
_NAME = Field(min_length=1, max_length=255)


class CreateDataset(Payload):
    """Create a dataset, or update the one of that name (description, metadata, schemas)."""

    project_id: str
    name: str = _NAME
    description: str | None = None
    metadata: Any = None
    input_schema: dict[str, Any] | None = None
    expected_output_schema: dict[str, Any] | None = None


class Dataset(Payload):
    id: str
    project_id: str
    name: str
    description: str | None = None
    metadata: Any = None
    input_schema: dict[str, Any] | None = None
    expected_output_schema: dict[str, Any] | None = None
    created_at: datetime
    updated_at: datetime


class GetDataset(Payload):
    project_id: str
    name: str


class ListDatasets(Payload):
    project_id: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class DatasetPage(Payload):
    data: list[Dataset]
    meta: PageMeta


class UpsertDatasetItem(Payload):
    """Create an item, or write the next version of the item ``id``: a field left ``None``
    keeps its current value."""

    project_id: str
    dataset_name: str = _NAME
    id: str | None = Field(default=None, min_length=1, max_length=255)
    input: Any = None
    expected_output: Any = None
    metadata: Any = None
    source_trace_id: str | None = None
    source_observation_id: str | None = None
    status: ItemStatus | None = None


class DatasetItem(Payload):
    """One version of an item: ``version`` is when it became current."""

    id: str
    project_id: str
    dataset_id: str
    dataset_name: str
    status: ItemStatus = "ACTIVE"
    input: Any = None
    expected_output: Any = None
    metadata: Any = None
    source_trace_id: str | None = None
    source_observation_id: str | None = None
    created_at: datetime
    updated_at: datetime
    version: datetime


class GetDatasetItem(Payload):
    project_id: str
    id: str


class ListDatasetItems(Payload):
    """Items as they were at ``version`` (now if none), the oldest first."""

    project_id: str
    dataset_name: str | None = None
    source_trace_id: str | None = None
    source_observation_id: str | None = None
    version: datetime | None = None
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class DatasetItemPage(Payload):
    data: list[DatasetItem]
    meta: PageMeta


class DeleteDatasetItem(Payload):
    project_id: str
    id: str


class Deleted(Payload):
    message: str


class DatasetRun(Payload):
    """A dataset run (an experiment): its id is the Langfuse SDK's experiment id."""

    id: str
    project_id: str
    name: str
    description: str | None = None
    metadata: Any = None
    dataset_id: str | None = None
    dataset_name: str | None = None
    created_at: datetime
    updated_at: datetime


class RunItem(Payload):
    """A dataset item run by a dataset run: the trace (and observation) that ran it."""

    id: str
    project_id: str
    dataset_run_id: str
    dataset_run_name: str
    dataset_item_id: str
    dataset_id: str | None = None
    trace_id: str
    observation_id: str | None = None
    dataset_version: datetime | None = None
    item_metadata: Any = None
    expected_output: Any = None
    start_time: datetime
    end_time: datetime | None = None
    level: str = "DEFAULT"
    environment: str = "default"
    created_at: datetime
    updated_at: datetime


class CreateRunItem(Payload):
    """Link a dataset item to a trace in the run ``run_name`` (created if new)."""

    project_id: str
    run_name: str = _NAME
    run_description: str | None = None
    metadata: Any = None
    dataset_item_id: str = Field(min_length=1)
    trace_id: str | None = None
    observation_id: str | None = None
    dataset_version: datetime | None = None
    created_at: datetime | None = None


class ListRunItems(Payload):
    project_id: str
    dataset_id: str
    run_name: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class RunItemPage(Payload):
    data: list[RunItem]
    meta: PageMeta


class ListDatasetRuns(Payload):
    project_id: str
    dataset_name: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class DatasetRunPage(Payload):
    data: list[DatasetRun]
    meta: PageMeta


class GetDatasetRun(Payload):
    project_id: str
    dataset_name: str
    run_name: str


class DatasetRunWithItems(Payload):
    run: DatasetRun
    items: list[RunItem]


class DeleteDatasetRun(Payload):
    project_id: str
    dataset_name: str
    run_name: str


class ListExperiments(Payload):
    """Experiments with items started in the window, the newest first; ``cursor`` pages."""

    project_id: str
    from_start_time: datetime
    to_start_time: datetime | None = None
    id: str | None = None
    name: str | None = None
    dataset_id: str | None = None
    cursor: str | None = None
    limit: int = Field(default=50, ge=1, le=1000)


class ExperimentSummary(Payload):
    run: DatasetRun
    start_time: datetime
    end_time: datetime
    item_count: int


class ExperimentPage(Payload):
    data: list[ExperimentSummary]
    cursor: str | None = None


class ListExperimentItems(Payload):
    project_id: str
    from_start_time: datetime
    to_start_time: datetime | None = None
    experiment_id: str | None = None
    experiment_name: str | None = None
    experiment_item_id: str | None = None
    dataset_id: str | None = None
    cursor: str | None = None
    limit: int = Field(default=50, ge=1, le=1000)


class ExperimentItemPage(Payload):
    data: list[RunItem]
    runs: list[DatasetRun] = Field(default_factory=list, description="The items' runs.")
    cursor: str | None = None


class CompareRuns(Payload):
    """Two or more runs side by side, by id or (within ``dataset_name``) by name."""

    project_id: str
    runs: list[str] = Field(min_length=2, max_length=10)
    dataset_name: str | None = None


class ComparisonCell(Payload):
    """What one run did with one dataset item."""

    run_id: str
    trace_id: str
    output: Any = None
    scores: dict[str, float | str | None] = Field(default_factory=dict)
    latency: float | None = Field(default=None, description="Seconds.")
    total_cost: float = 0.0
    level: str = "DEFAULT"


class ComparisonRow(Payload):
    dataset_item_id: str
    input: Any = None
    expected_output: Any = None
    cells: list[ComparisonCell | None] = Field(description="One per run, in the runs' order.")


class ExperimentComparison(Payload):
    runs: list[DatasetRun]
    rows: list[ComparisonRow]
    averages: list[dict[str, float]] = Field(
        default_factory=list, description="Per run: each numeric score's mean, latency, cost."
    )
