"""The evaluation service's RPCs: datasets and experiments, score configs and annotation
queues, LLM connections, evaluators, their rules and jobs."""

from __future__ import annotations

from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    CompletedQueueItem,
    CompleteQueueItem,
    CreateQueue,
    DeletedQueueItem,
    ListQueueItems,
    ListQueues,
    QueueAssignment,
    QueueAssignmentDeleted,
    QueueItem,
    QueueItemPage,
    QueueItemRef,
    QueuePage,
    QueueRef,
    UpdateQueueItem,
)
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
from axonal_events.evaluators import (
    CreateEvalRule,
    CreateEvalTemplate,
    DeletedLlmConnection,
    DeleteLlmConnection,
    EvalJob,
    EvalJobList,
    EvalRule,
    EvalRuleList,
    EvalTemplate,
    EvalTemplateList,
    EvaluateDatasetRun,
    GetEvalJob,
    ListEvalJobs,
    ListEvalRules,
    ListEvalTemplates,
    ListLlmConnections,
    LlmConnection,
    LlmConnectionPage,
    OfflineEvaluation,
    SetRuleActive,
    UpsertLlmConnection,
)
from axonal_events.rpc import Rpc
from axonal_events.score_configs import (
    CreateScoreConfig,
    GetScoreConfig,
    GetScoreConfigs,
    ListScoreConfigs,
    ScoreConfig,
    ScoreConfigList,
    ScoreConfigPage,
    UpdateScoreConfig,
)

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
    create_score_config = Rpc(
        "evaluation", "create_score_config", CreateScoreConfig, ScoreConfig, "A score config."
    )
    list_score_configs = Rpc(
        "evaluation", "list_score_configs", ListScoreConfigs, ScoreConfigPage, "Score configs."
    )
    get_score_config = Rpc(
        "evaluation", "get_score_config", GetScoreConfig, ScoreConfig, "One score config."
    )
    get_score_configs = Rpc(
        "evaluation",
        "get_score_configs",
        GetScoreConfigs,
        ScoreConfigList,
        "The configs of these ids that exist (archived included).",
    )
    update_score_config = Rpc(
        "evaluation",
        "update_score_config",
        UpdateScoreConfig,
        ScoreConfig,
        "Change or archive a score config.",
    )
    create_queue = Rpc(
        "evaluation", "create_queue", CreateQueue, AnnotationQueue, "An annotation queue."
    )
    list_queues = Rpc("evaluation", "list_queues", ListQueues, QueuePage, "Annotation queues.")
    get_queue = Rpc("evaluation", "get_queue", QueueRef, AnnotationQueue, "One queue.")
    add_queue_item = Rpc(
        "evaluation",
        "add_queue_item",
        AddQueueItem,
        QueueItem,
        "Add an object to a queue (the item already there if it is).",
    )
    list_queue_items = Rpc(
        "evaluation", "list_queue_items", ListQueueItems, QueueItemPage, "A queue's items."
    )
    get_queue_item = Rpc("evaluation", "get_queue_item", QueueItemRef, QueueItem, "One item.")
    update_queue_item = Rpc(
        "evaluation", "update_queue_item", UpdateQueueItem, QueueItem, "Set an item's status."
    )
    delete_queue_item = Rpc(
        "evaluation", "delete_queue_item", QueueItemRef, DeletedQueueItem, "Remove an item."
    )
    complete_queue_item = Rpc(
        "evaluation",
        "complete_queue_item",
        CompleteQueueItem,
        CompletedQueueItem,
        "Complete an item and create its scores (score.created), checked against the configs.",
    )
    assign_queue = Rpc(
        "evaluation", "assign_queue", QueueAssignment, QueueAssignment, "Assign a user."
    )
    unassign_queue = Rpc(
        "evaluation",
        "unassign_queue",
        QueueAssignment,
        QueueAssignmentDeleted,
        "Remove a user's assignment.",
    )

    # LLM connections, evaluators, rules and jobs.
    upsert_llm_connection = Rpc(
        "evaluation",
        "upsert_llm_connection",
        UpsertLlmConnection,
        LlmConnection,
        "Create or replace the project's LLM connection of a provider (secret encrypted).",
    )
    list_llm_connections = Rpc(
        "evaluation",
        "list_llm_connections",
        ListLlmConnections,
        LlmConnectionPage,
        "LLM connections, secrets masked.",
    )
    delete_llm_connection = Rpc(
        "evaluation",
        "delete_llm_connection",
        DeleteLlmConnection,
        DeletedLlmConnection,
        "Delete an LLM connection.",
    )
    create_eval_template = Rpc(
        "evaluation",
        "create_eval_template",
        CreateEvalTemplate,
        EvalTemplate,
        "Create an LLM-as-a-judge template.",
    )
    list_eval_templates = Rpc(
        "evaluation", "list_eval_templates", ListEvalTemplates, EvalTemplateList, "Templates."
    )
    create_eval_rule = Rpc(
        "evaluation", "create_eval_rule", CreateEvalRule, EvalRule, "Create an online rule."
    )
    list_eval_rules = Rpc("evaluation", "list_eval_rules", ListEvalRules, EvalRuleList, "Rules.")
    set_eval_rule_active = Rpc(
        "evaluation",
        "set_eval_rule_active",
        SetRuleActive,
        EvalRule,
        "Activate (its connection must exist) or deactivate a rule.",
    )
    list_eval_jobs = Rpc(
        "evaluation", "list_eval_jobs", ListEvalJobs, EvalJobList, "Jobs by rule and state."
    )
    get_eval_job = Rpc("evaluation", "get_eval_job", GetEvalJob, EvalJob, "One job and why.")
    evaluate_dataset_run = Rpc(
        "evaluation",
        "evaluate_dataset_run",
        EvaluateDatasetRun,
        OfflineEvaluation,
        "Judge every item of a dataset run with a rule's evaluator.",
    )
