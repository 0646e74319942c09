"""The ``/v2/observations`` answer: Langfuse's field groups, raw input/output, cut metadata.

An observation carries the fields of the groups asked for in ``fields`` (``core`` always;
``core,basic`` when ``fields`` is absent; unknown names are dropped, as Langfuse drops them),
plus ``modelId`` and the three prices, which Langfuse always sends. Input and output are the
strings the client sent (a JSON value as compact JSON). A metadata value whose text is longer
than 200 characters is cut to its first 200 unless its key is named in ``expandMetadata``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any

from pydantic import Field
from pydantic.alias_generators import to_camel

from axonal_api.public_bodies import Camel
from axonal_events.trace_reads import ObservationView
from axonal_events.traces import ObservationLevel

__all__ = [
    "ALWAYS",
    "DEFAULT_GROUPS",
    "FIELD_GROUPS",
    "METADATA_LIMIT",
    "LangfuseObservationV2",
    "cut_metadata",
    "decimal_text",
    "field_groups",
    "raw_text",
    "wanted_keys",
]

FIELD_GROUPS: dict[str, tuple[str, ...]] = {
    "core": ("id", "traceId", "startTime", "endTime", "projectId", "parentObservationId", "type"),
    "basic": (
        "name",
        "level",
        "statusMessage",
        "version",
        "environment",
        "bookmarked",
        "public",
        "userId",
        "sessionId",
        "isRootObservation",
    ),
    "time": ("completionStartTime", "createdAt", "updatedAt"),
    "io": ("input", "output"),
    "metadata": ("metadata",),
    "model": ("model", "internalModelId", "modelParameters"),
    "usage": ("usageDetails", "costDetails", "totalCost", "usagePricingTierName"),
    "prompt": ("promptId", "promptName", "promptVersion"),
    "metrics": ("latency", "timeToFirstToken"),
    "trace_context": ("tags", "release", "traceName"),
}
#: Sent whatever the groups: the matched model and its prices (null unless ``model``).
ALWAYS = ("modelId", "inputPrice", "outputPrice", "totalPrice")
DEFAULT_GROUPS = ("core", "basic")
_AS_VIEWED = {
    "id",
    "trace_id",
    "start_time",
    "end_time",
    "project_id",
    "parent_observation_id",
    "name",
    "level",
    "status_message",
    "version",
    "environment",
    "user_id",
    "session_id",
    "completion_start_time",
    "created_at",
    "updated_at",
    "model",
    "model_parameters",
    "usage_details",
    "cost_details",
    "total_cost",
    "prompt_name",
    "prompt_version",
    "tags",
    "trace_name",
}
METADATA_LIMIT = 200


def field_groups(fields: str | None) -> tuple[str, ...]:
    """The groups ``fields`` names, ``core`` first; the default when it names nothing."""
    if not fields or not fields.strip():
        return DEFAULT_GROUPS
    named = {name.strip() for name in fields.split(",")}
    return tuple(group for group in FIELD_GROUPS if group == "core" or group in named)


def wanted_keys(groups: Iterable[str]) -> frozenset[str]:
    """The answer's keys for ``groups``."""
    return frozenset(ALWAYS).union(*(FIELD_GROUPS[group] for group in groups))


def raw_text(value: Any) -> str | None:
    """``value`` as the text a client sent: a string unchanged, anything else as JSON."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def decimal_text(price: float | None) -> str | None:
    """A price as Langfuse writes its decimals: ``1.5e-07`` is ``"0.00000015"``."""
    return None if price is None else format(Decimal(repr(price)), "f")


def cut_metadata(metadata: dict[str, Any], expand: Iterable[str] = ()) -> dict[str, Any]:
    """Each value longer than :data:`METADATA_LIMIT` as text cut to that many characters,
    unless its key is in ``expand``."""
    keep = set(expand)
    cut = {}
    for key, value in metadata.items():
        text = raw_text(value)
        long = key not in keep and text is not None and len(text) > METADATA_LIMIT
        cut[key] = text[:METADATA_LIMIT] if long and text is not None else value
    return cut


class LangfuseObservationV2(Camel):
    """An observation as ``/v2/observations`` answers it; only the asked groups are sent."""

    id: str
    trace_id: str | None = None
    start_time: datetime
    end_time: datetime | None = None
    project_id: str
    parent_observation_id: str | None = None
    type: str
    name: str | None = None
    level: ObservationLevel | None = None
    status_message: str | None = None
    version: str | None = None
    environment: str | None = None
    bookmarked: bool | None = None
    public: bool | None = None
    user_id: str | None = None
    session_id: str | None = None
    is_root_observation: bool | None = None
    completion_start_time: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    input: str | None = Field(default=None, description="As the client sent it.")
    output: str | None = Field(default=None, description="As the client sent it.")
    metadata: dict[str, Any] | None = None
    model: str | None = None
    internal_model_id: str | None = None
    model_parameters: Any = None
    usage_details: dict[str, int] | None = None
    cost_details: dict[str, float] | None = None
    total_cost: float | None = None
    usage_pricing_tier_name: str | None = None
    prompt_id: str | None = None
    prompt_name: str | None = None
    prompt_version: int | None = None
    latency: float | None = Field(default=None, description="Seconds.")
    time_to_first_token: float | None = Field(default=None, description="Seconds.")
    model_id: str | None = None
    input_price: str | None = Field(default=None, description="USD per unit, as a decimal.")
    output_price: str | None = None
    total_price: str | None = None
    trace_name: str | None = None
    tags: list[str] | None = None
    release: str | None = None

    @classmethod
    def of(
        cls, view: ObservationView, groups: Collection[str], expand: Iterable[str] = ()
    ) -> LangfuseObservationV2:
        """The fields of ``groups`` (and :data:`ALWAYS`), set; the others left unset."""
        start, end, first = view.start_time, view.end_time, view.completion_start_time
        every: dict[str, Any] = {
            **view.model_dump(include=_AS_VIEWED),
            "type": view.type.value,
            "bookmarked": False,
            "public": view.trace_public,
            "is_root_observation": view.parent_observation_id is None,
            "input": raw_text(view.input),
            "output": raw_text(view.output),
            "metadata": cut_metadata(view.metadata, expand),
            "latency": (end - start).total_seconds() if end else None,
            "time_to_first_token": (first - start).total_seconds() if first else None,
            "release": view.trace_release if view.trace_release is not None else view.release,
            "internal_model_id": view.model_id,
            "usage_pricing_tier_name": view.pricing_tier,
            "prompt_id": view.linked_prompt_id(),
        }
        if "model" in groups:  # Langfuse looks the model up only then
            prices = view.model_prices
            every |= {
                "model_id": view.model_id,
                "input_price": decimal_text(prices.get("input")),
                "output_price": decimal_text(prices.get("output")),
                "total_price": decimal_text(prices.get("total")),
            }
        wanted = wanted_keys(groups)
        fields = {name: None for name in cls.model_fields if to_camel(name) in wanted}
        return cls(**(fields | {k: v for k, v in every.items() if to_camel(k) in wanted}))
