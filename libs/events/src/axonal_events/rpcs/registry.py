"""The registry service's RPCs: registered models (versions, aliases, approvals, lineage),
the component hub, prompts."""

from __future__ import annotations

from axonal_events.hub import (
    ComponentList,
    HubComponent,
    ListComponents,
    PushComponent,
    ResolveComponent,
)
from axonal_events.model_evaluations import (
    ModelVersionScores,
    PromotionGates,
    ReadModelScores,
    RecordModelScores,
    SetPromotionGates,
)
from axonal_events.model_registry import (
    AliasRequestList,
    ApprovePromotion,
    ArchiveModelVersion,
    CreateModelVersion,
    CreateRegisteredModel,
    GetModelVersion,
    LineageGraph,
    ListModelVersions,
    ListPromotionRequests,
    ListRegisteredModels,
    ModelRef,
    ModelVersion,
    ModelVersionList,
    PromoteModelVersion,
    Promotion,
    ProtectAliases,
    ReadModelLineage,
    RegisteredModel,
    RegisteredModelList,
)
from axonal_events.prompts import (
    CreatePrompt,
    DeletedPrompt,
    DeletePrompt,
    GetPrompt,
    GetPromptVersions,
    ListPrompts,
    PromptMetaPage,
    PromptVersion,
    PromptVersionList,
    ProtectedLabels,
    ProtectedLabelsOf,
    SetPromptLabels,
)
from axonal_events.rpc import Rpc

__all__ = ["Registry"]


class Registry:
    """Registered models (versions, aliases, approvals, lineage), the component hub, prompts."""

    create_model = Rpc(
        "registry", "create_model", CreateRegisteredModel, RegisteredModel, "Register a model."
    )
    list_models = Rpc(
        "registry", "list_models", ListRegisteredModels, RegisteredModelList, "Models."
    )
    get_model = Rpc("registry", "get_model", ModelRef, RegisteredModel, "One model.")
    protect_aliases = Rpc(
        "registry",
        "protect_aliases",
        ProtectAliases,
        RegisteredModel,
        "Set the aliases that move only on approval.",
    )
    create_version = Rpc(
        "registry",
        "create_version",
        CreateModelVersion,
        ModelVersion,
        "A version from a run's model artifact.",
    )
    list_versions = Rpc(
        "registry", "list_versions", ListModelVersions, ModelVersionList, "A model's versions."
    )
    get_version = Rpc(
        "registry", "get_version", GetModelVersion, ModelVersion, "A version, by number or alias."
    )
    promote = Rpc(
        "registry",
        "promote",
        PromoteModelVersion,
        Promotion,
        "Move an alias to a version (or ask approval for a protected one).",
    )
    archive = Rpc("registry", "archive", ArchiveModelVersion, ModelVersion, "Archive a version.")
    approve = Rpc(
        "registry", "approve", ApprovePromotion, Promotion, "Approve a pending alias move."
    )
    promotion_requests = Rpc(
        "registry",
        "promotion_requests",
        ListPromotionRequests,
        AliasRequestList,
        "A model's alias move requests.",
    )
    lineage = Rpc(
        "registry",
        "lineage",
        ReadModelLineage,
        LineageGraph,
        "Datasets and runs upstream of a model version.",
    )
    record_scores = Rpc(
        "registry",
        "record_scores",
        RecordModelScores,
        ModelVersionScores,
        "Record an evaluation run's scores on a model version.",
    )
    version_scores = Rpc(
        "registry", "version_scores", ReadModelScores, ModelVersionScores, "A version's scores."
    )
    set_gates = Rpc(
        "registry",
        "set_gates",
        SetPromotionGates,
        PromotionGates,
        "Set the scores an alias requires of the version it moves to.",
    )
    gates = Rpc("registry", "gates", ModelRef, PromotionGates, "A model's promotion gates.")

    push_component = Rpc(
        "registry", "push_component", PushComponent, HubComponent, "Publish a component version."
    )
    list_components = Rpc(
        "registry", "list_components", ListComponents, ComponentList, "Component versions."
    )
    resolve_component = Rpc(
        "registry",
        "resolve_component",
        ResolveComponent,
        HubComponent,
        "What a hubRef names: pushed first, then built-in.",
    )

    create_prompt = Rpc(
        "registry", "create_prompt", CreatePrompt, PromptVersion, "The next version of a prompt."
    )
    get_prompt = Rpc(
        "registry", "get_prompt", GetPrompt, PromptVersion, "A version by number or label."
    )
    prompt_versions = Rpc(
        "registry", "prompt_versions", GetPromptVersions, PromptVersionList, "All versions."
    )
    list_prompts = Rpc(
        "registry", "list_prompts", ListPrompts, PromptMetaPage, "Prompt names, filtered."
    )
    set_prompt_labels = Rpc(
        "registry", "set_prompt_labels", SetPromptLabels, PromptVersion, "Move labels."
    )
    delete_prompt = Rpc(
        "registry", "delete_prompt", DeletePrompt, DeletedPrompt, "Delete versions."
    )
    protected_labels = Rpc(
        "registry",
        "protected_labels",
        ProtectedLabelsOf,
        ProtectedLabels,
        "A project's protected labels.",
    )
    set_protected_labels = Rpc(
        "registry",
        "set_protected_labels",
        ProtectedLabels,
        ProtectedLabels,
        "Replace a project's protected labels.",
    )
