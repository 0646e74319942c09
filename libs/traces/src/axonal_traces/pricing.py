"""Model prices (shipped as ``model_prices.json``) and the cost of a generation's usage.

A client's ``cost_details`` are authoritative: they are kept exactly as sent and nothing is
computed. Otherwise each priced usage type costs ``usage x price``; ``input_*``/``output_*``
types without their own price (reasoning, audio) are charged at the input/output price, and
``total`` is the sum.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["ModelPrice", "compute_cost", "find_model", "models"]


@dataclass(frozen=True)
class ModelPrice:
    model_name: str
    pattern: re.Pattern[str]
    prices: dict[str, float]
    tokenizer_model: str | None = None

    def price_of(self, usage_type: str) -> float | None:
        if usage_type in self.prices:
            return self.prices[usage_type]
        side = usage_type.split("_", 1)[0]
        if side in ("input", "output") and usage_type != side:
            return self.prices.get(side)
        return None


@cache
def models() -> tuple[ModelPrice, ...]:
    """The shipped model definitions, in match order."""
    text = resources.files("axonal_traces").joinpath("model_prices.json").read_text()
    return tuple(
        ModelPrice(
            model_name=entry["model_name"],
            pattern=re.compile(entry["match_pattern"]),
            prices={k: float(v) for k, v in entry["prices"].items()},
            tokenizer_model=entry.get("tokenizer_model"),
        )
        for entry in json.loads(text)["models"]
    )


@cache
def find_model(model: str) -> ModelPrice | None:
    """The first definition whose pattern matches ``model``."""
    return next((m for m in models() if m.pattern.search(model)), None)


def compute_cost(model: str | None, usage: Mapping[str, int]) -> dict[str, float] | None:
    """Cost per usage type and ``total``; ``None`` for an unknown model or nothing priced."""
    found = find_model(model) if model else None
    if found is None:
        return None
    cost = {
        key: count * price
        for key, count in usage.items()
        if key != "total" and (price := found.price_of(key)) is not None
    }
    if not cost:
        return None
    return {**cost, "total": sum(cost.values())}
