"""Stored rows derived from merged states, with usage and cost priced at ingest.

A generation's cost is the client's ``cost_details`` as sent when it sent any (with their
``total`` added when they price only input and output, as Langfuse completes them); else
it is computed from usage and the model definition that prices it (the project's own or a
shipped one, see :mod:`axonal_traces.pricing`). Usage missing from a generation with text
input/output is counted by ``count_tokens`` (for the models it knows), with the definition's
tokenizer model where it names one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from axonal_events.llm_models import ModelDefinition
from axonal_traces.pricing import Pricing, compute_cost, tier_of
from axonal_traces.usage import with_total

__all__ = ["TokenCounter", "observation_row", "score_row", "trace_row"]

TokenCounter = Callable[[str, Any], int | None]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_PRICED_TYPES = {"GENERATION", "EMBEDDING"}


def _time(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def _first(state: dict[str, Any]) -> datetime:
    return _EPOCH + timedelta(microseconds=int(state["first"]))


def trace_row(project_id: str, trace_id: str, state: dict[str, Any]) -> dict[str, Any]:
    v = state["v"]
    return {
        "project_id": project_id,
        "id": trace_id,
        "timestamp": _time(v.get("timestamp")) or _first(state),
        "name": v.get("name"),
        "user_id": v.get("user_id"),
        "session_id": v.get("session_id"),
        "input": v.get("input"),
        "output": v.get("output"),
        "metadata": v.get("metadata") or {},
        "tags": v.get("tags") or [],
        "public": bool(v.get("public", False)),
        "release": v.get("release"),
        "version": v.get("version"),
        "environment": v.get("environment") or "default",
        "run_uuid": v.get("run_uuid"),
        "state": state,
    }


def _usage(
    v: dict[str, Any], definition: ModelDefinition | None, count_tokens: TokenCounter | None
) -> dict[str, int]:
    usage: dict[str, int] = dict(v.get("usage_details") or {})
    model = v.get("model")
    if usage or count_tokens is None or not model or v.get("type") not in _PRICED_TYPES:
        return with_total(usage)
    tokenizer = (definition.tokenizer_model if definition else None) or model
    for side in ("input", "output"):
        if v.get(side) is not None and (count := count_tokens(tokenizer, v[side])) is not None:
            usage[side] = count
    return with_total(usage)


def _cost(
    v: dict[str, Any], definition: ModelDefinition | None, usage: dict[str, int]
) -> tuple[dict[str, float], str, float, str | None]:
    """``(cost details, where they came from, total, the pricing tier that computed them)``."""
    sent = v.get("cost_details")
    if sent:
        details = dict(sent)
        if "total" not in details and details.keys() <= {"input", "output"}:
            details["total"] = details.get("input", 0.0) + details.get("output", 0.0)
        total = details.get("total", sum(details.values()))
        return details, "client", float(total), None
    attributes = {"model_parameters": v.get("model_parameters"), "metadata": v.get("metadata")}
    computed = compute_cost(definition, usage, **attributes)
    if computed is None or definition is None:
        return {}, "none", 0.0, None
    return computed, "computed", computed["total"], tier_of(definition, usage, **attributes).name


def observation_row(
    project_id: str,
    observation_id: str,
    state: dict[str, Any],
    pricing: Pricing,
    count_tokens: TokenCounter | None,
) -> dict[str, Any]:
    v = state["v"]
    start_time = _time(v.get("start_time")) or _first(state)
    model = v.get("model")
    definition = pricing.find(model, start_time) if model else None
    usage = _usage(v, definition, count_tokens)
    cost, source, total, tier = _cost(v, definition, usage)
    return {
        "project_id": project_id,
        "id": observation_id,
        "trace_id": v["trace_id"],
        "type": v.get("type") or "SPAN",
        "parent_observation_id": v.get("parent_observation_id"),
        "name": v.get("name"),
        "start_time": start_time,
        "end_time": _time(v.get("end_time")),
        "completion_start_time": _time(v.get("completion_start_time")),
        "input": v.get("input"),
        "output": v.get("output"),
        "metadata": v.get("metadata") or {},
        "level": v.get("level") or "DEFAULT",
        "status_message": v.get("status_message"),
        "version": v.get("version"),
        "release": v.get("release"),
        "environment": v.get("environment") or "default",
        "model": v.get("model"),
        "model_parameters": v.get("model_parameters") or {},
        "usage_details": usage,
        "cost_details": cost,
        "cost_source": source,
        "total_cost": total,
        "model_id": definition.id if definition else None,
        "pricing_tier": tier,
        "prompt_name": v.get("prompt_name"),
        "prompt_version": v.get("prompt_version"),
        "experiment": v.get("experiment"),
        "state": state,
    }


def score_row(project_id: str, score_id: str, state: dict[str, Any]) -> dict[str, Any]:
    v = state["v"]
    return {
        "project_id": project_id,
        "id": score_id,
        "name": v["name"],
        "data_type": v.get("data_type") or "NUMERIC",
        "value": v.get("value"),
        "string_value": v.get("string_value"),
        "source": v.get("source") or "API",
        "trace_id": v.get("trace_id"),
        "observation_id": v.get("observation_id"),
        "session_id": v.get("session_id"),
        "dataset_run_id": v.get("dataset_run_id"),
        "comment": v.get("comment"),
        "metadata": v.get("metadata") or {},
        "config_id": v.get("config_id"),
        "queue_id": v.get("queue_id"),
        "environment": v.get("environment") or "default",
        "timestamp": _time(v.get("timestamp")) or _first(state),
        "state": state,
    }
