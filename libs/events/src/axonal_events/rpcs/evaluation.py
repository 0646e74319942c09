"""The evaluation service's RPCs: datasets and experiments, score configs and annotation
queues, LLM connections, evaluators, their rules and jobs."""

from __future__ import annotations

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
    GetEvalJob,
    ListEvalJobs,
    ListEvalRules,
    ListEvalTemplates,
    ListLlmConnections,
    LlmConnection,
    LlmConnectionPage,
    SetRuleActive,
    UpsertLlmConnection,
)
from axonal_events.rpc import Rpc

__all__ = ["Evaluation"]


class Evaluation:
    """Datasets and experiments, score configs, annotation queues, evaluators and their jobs."""

    # Datasets, items, runs and experiments.

    # Score configs and annotation queues.

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


_ = Rpc  # each section above declares Rpc("evaluation", ...) descriptors
