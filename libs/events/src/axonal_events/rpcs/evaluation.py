"""The evaluation service's RPCs: datasets and experiments, score configs and annotation
queues, LLM connections, evaluators, their rules and jobs."""

from __future__ import annotations

from axonal_events.datasets import (
    CompareRuns,
    CreateDataset,
    CreateRunItem,
    Dataset,
    DatasetItem,
    DatasetItemPage,
    DatasetPage,
    DatasetRunPage,
    DatasetRunWithItems,
    Deleted,
    DeleteDatasetItem,
    DeleteDatasetRun,
    ExperimentComparison,
    ExperimentItemPage,
    ExperimentPage,
    GetDataset,
    GetDatasetItem,
    GetDatasetRun,
    ListDatasetItems,
    ListDatasetRuns,
    ListDatasets,
    ListExperimentItems,
    ListExperiments,
    ListRunItems,
    RunItem,
    RunItemPage,
    UpsertDatasetItem,
)
from axonal_events.rpc import Rpc

__all__ = ["Evaluation"]


class Evaluation:
    """Datasets and experiments, score configs, annotation queues, evaluators and their jobs."""

    # Datasets, items, runs and experiments.
    create_dataset = Rpc("evaluation", "create_dataset", CreateDataset, Dataset, "Create/update.")
    get_dataset = Rpc("evaluation", "get_dataset", GetDataset, Dataset, "A dataset by name.")
    list_datasets = Rpc("evaluation", "list_datasets", ListDatasets, DatasetPage, "Datasets.")
    upsert_dataset_item = Rpc(
        "evaluation", "upsert_dataset_item", UpsertDatasetItem, DatasetItem, "A new item version."
    )
    get_dataset_item = Rpc(
        "evaluation", "get_dataset_item", GetDatasetItem, DatasetItem, "An item's current version."
    )
    list_dataset_items = Rpc(
        "evaluation", "list_dataset_items", ListDatasetItems, DatasetItemPage, "Items, as of."
    )
    delete_dataset_item = Rpc(
        "evaluation", "delete_dataset_item", DeleteDatasetItem, Deleted, "Delete (versioned)."
    )
    create_run_item = Rpc(
        "evaluation", "create_run_item", CreateRunItem, RunItem, "Link an item to a trace."
    )
    list_run_items = Rpc("evaluation", "list_run_items", ListRunItems, RunItemPage, "Run items.")
    list_dataset_runs = Rpc(
        "evaluation", "list_dataset_runs", ListDatasetRuns, DatasetRunPage, "A dataset's runs."
    )
    get_dataset_run = Rpc(
        "evaluation", "get_dataset_run", GetDatasetRun, DatasetRunWithItems, "A run, its items."
    )
    delete_dataset_run = Rpc(
        "evaluation", "delete_dataset_run", DeleteDatasetRun, Deleted, "Delete a run."
    )
    list_experiments = Rpc(
        "evaluation", "list_experiments", ListExperiments, ExperimentPage, "Experiments."
    )
    list_experiment_items = Rpc(
        "evaluation", "list_experiment_items", ListExperimentItems, ExperimentItemPage, "Items."
    )
    compare_runs = Rpc(
        "evaluation",
        "compare_runs",
        CompareRuns,
        ExperimentComparison,
        "Runs side by side, per item.",
    )

    # Score configs and annotation queues.

    # LLM connections, evaluators, rules and jobs.


_ = Rpc  # each section above declares Rpc("evaluation", ...) descriptors
