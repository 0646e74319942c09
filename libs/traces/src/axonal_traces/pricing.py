"""Model definitions and the cost of a generation's usage.

The shipped definitions (``model_prices.json``, public list prices) apply to every project; a
project's own definitions (:class:`~axonal_events.llm_models.ModelDefinition`) come first. Of
the definitions whose pattern matches the model name and whose start date is not after the
generation's start, the project's own win, then the latest start date (none counts as the
earliest).

A client's ``cost_details`` are authoritative (the caller keeps them and computes nothing).
Otherwise the definition's tier is chosen (the first by priority whose conditions all hold,
else the default), each priced usage type costs ``usage x price``, ``input_*``/``output_*``
types without their own price (reasoning, audio) are charged at the input/output price, and
``total`` is the sum; a definition priced only by ``total`` charges the total usage.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any

from axonal_events.llm_models import (
    AttributeCondition,
    ModelDefinition,
    PricingTier,
    TierOperator,
    UsageCondition,
)

__all__ = ["Pricing", "compute_cost", "find_model", "shipped_models", "tier_of"]

_COMPARE: dict[TierOperator, Callable[[float, float], bool]] = {
    TierOperator.GT: operator.gt,
    TierOperator.GTE: operator.ge,
    TierOperator.LT: operator.lt,
    TierOperator.LTE: operator.le,
    TierOperator.EQ: operator.eq,
    TierOperator.NEQ: operator.ne,
}


@cache
def shipped_models() -> tuple[ModelDefinition, ...]:
    """The shipped definitions, in match order (ids are ``shipped-<model name>``, created
    when the price list was published)."""
    document = json.loads(
        resources.files("axonal_traces").joinpath("model_prices.json").read_text()
    )
    published = datetime.fromisoformat(document["published"])
    return tuple(
        ModelDefinition(
            id=f"shipped-{entry['model_name']}",
            model_name=entry["model_name"],
            match_pattern=entry["match_pattern"],
            tiers=[PricingTier(name="default", is_default=True, prices=entry["prices"])],
            tokenizer_model=entry.get("tokenizer_model"),
            managed=True,
            created_at=published,
        )
        for entry in document["models"]
    )


@cache
def _pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@cache
def find_model(model: str) -> ModelDefinition | None:
    """The shipped definition of ``model`` (the first whose pattern matches)."""
    return next((d for d in shipped_models() if _pattern(d.match_pattern).search(model)), None)


def _start(definition: ModelDefinition) -> float:
    return definition.start_date.timestamp() if definition.start_date else float("-inf")


class Pricing:
    """Finds the definition that prices a generation, a project's own before the shipped."""

    def __init__(self, own: Sequence[ModelDefinition] = ()) -> None:
        # latest start first, none last: the first that has started is the one that applies
        self._own = sorted(own, key=_start, reverse=True)
        self._matching: dict[str, list[ModelDefinition]] = {}

    def find(self, model: str, at: datetime | None = None) -> ModelDefinition | None:
        """The definition pricing ``model`` for a generation that started ``at``."""
        if model not in self._matching:
            self._matching[model] = [
                d for d in self._own if _pattern(d.match_pattern).search(model)
            ]
        for definition in self._matching[model]:
            if definition.start_date is None or at is None or definition.start_date <= at:
                return definition
        return find_model(model)


def _price_of(prices: Mapping[str, float], usage_type: str) -> float | None:
    if usage_type in prices:
        return prices[usage_type]
    side = usage_type.split("_", 1)[0]
    if side in ("input", "output") and usage_type != side:
        return prices.get(side)
    return None


def _holds(
    condition: UsageCondition | AttributeCondition,
    usage: Mapping[str, int],
    attributes: Mapping[str, Mapping[str, Any]],
) -> bool:
    if isinstance(condition, AttributeCondition):
        value = attributes.get(condition.source, {}).get(condition.key)
        return value is not None and str(value) in condition.values
    flags = 0 if condition.case_sensitive else re.IGNORECASE
    pattern = re.compile(condition.usage_detail_pattern, flags)
    used = sum(count for key, count in usage.items() if key != "total" and pattern.search(key))
    return _COMPARE[condition.operator](used, condition.value)


def tier_of(
    definition: ModelDefinition,
    usage: Mapping[str, int],
    *,
    model_parameters: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> PricingTier:
    """The tier that prices ``usage``: the first by priority whose conditions all hold, else
    the default."""
    if len(definition.tiers) == 1:  # the default alone, as most definitions are
        return definition.tiers[0]
    conditional = sorted(
        (t for t in definition.tiers if not t.is_default), key=lambda t: t.priority
    )
    attributes = {"model_parameters": model_parameters or {}, "metadata": metadata or {}}
    for tier in conditional:
        if all(_holds(c, usage, attributes) for c in tier.conditions):
            return tier
    return next(t for t in definition.tiers if t.is_default)


def compute_cost(
    definition: ModelDefinition | None,
    usage: Mapping[str, int],
    *,
    model_parameters: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> dict[str, float] | None:
    """Cost per usage type and ``total``; ``None`` without a definition or anything priced."""
    if definition is None:
        return None
    tier = tier_of(definition, usage, model_parameters=model_parameters, metadata=metadata)
    prices = tier.prices
    cost = {
        key: count * price
        for key, count in usage.items()
        if key != "total" and (price := _price_of(prices, key)) is not None
    }
    if not cost and "total" in prices and "total" in usage:
        return {"total": usage["total"] * prices["total"]}
    if not cost:
        return None
    return {**cost, "total": sum(cost.values())}
