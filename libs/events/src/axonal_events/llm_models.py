"""Model definitions: which generations a definition prices (a pattern on the model name,
from a start date) and its prices per usage type, in tiers.

The shipped definitions (public list prices) apply to every project; a project's own
definitions come first (a fine-tuned or self-hosted model, a negotiated price). Prices are
USD per unit of a usage type (``input``, ``output``, ``input_cached_tokens``, ...). The
default tier always applies; another tier applies instead when all its conditions hold (the
first by priority), for example input above 200,000 tokens.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload
from axonal_events.trace_reads import PageMeta

__all__ = [
    "AttributeCondition",
    "DeleteModel",
    "GetModel",
    "ListModels",
    "ModelDefinition",
    "ModelPage",
    "ModelSpec",
    "ModelTerms",
    "PricingTier",
    "TierOperator",
    "UsageCondition",
    "UsageUnit",
]

Price = Annotated[float, Field(ge=0)]


def _compiles(pattern: str, field: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{field} is not a valid regular expression: {exc}") from None
    return pattern


class UsageUnit(StrEnum):
    TOKENS = "TOKENS"
    CHARACTERS = "CHARACTERS"
    MILLISECONDS = "MILLISECONDS"
    SECONDS = "SECONDS"
    IMAGES = "IMAGES"
    REQUESTS = "REQUESTS"


class TierOperator(StrEnum):
    GT = "gt"
    GTE = "gte"
    LT = "lt"
    LTE = "lte"
    EQ = "eq"
    NEQ = "neq"


class UsageCondition(Payload):
    """Holds when the sum of the usage types matching ``usage_detail_pattern`` compares true."""

    usage_detail_pattern: str = Field(min_length=1, max_length=500)
    operator: TierOperator
    value: float
    case_sensitive: bool = False

    @field_validator("usage_detail_pattern")
    @classmethod
    def _pattern(cls, value: str) -> str:
        return _compiles(value, "usage_detail_pattern")


class AttributeCondition(Payload):
    """Holds when the generation's model parameter or metadata ``key`` is one of ``values``."""

    source: Literal["model_parameters", "metadata"]
    key: str = Field(min_length=1, max_length=200)
    operator: Literal["in"] = "in"
    values: list[str] = Field(min_length=1, max_length=100)


class PricingTier(Payload):
    name: str = Field(min_length=1, max_length=100)
    is_default: bool = False
    priority: int = Field(default=0, ge=0)
    conditions: list[UsageCondition | AttributeCondition] = Field(
        default_factory=list, max_length=20
    )
    prices: dict[str, Price] = Field(min_length=1, description="USD per unit by usage type.")

    @model_validator(mode="after")
    def _default_is_unconditional(self) -> PricingTier:
        if self.is_default and self.conditions:
            raise ValueError(f"tier {self.name!r}: the default tier takes no conditions")
        if not self.is_default and not self.conditions:
            raise ValueError(f"tier {self.name!r}: a tier other than the default needs conditions")
        return self


class ModelTerms(Payload):
    """What a definition says: which models, from when, at which prices."""

    model_name: str = Field(min_length=1, max_length=200)
    match_pattern: str = Field(
        min_length=1, max_length=500, description="A regular expression on the model name."
    )
    start_date: datetime | None = Field(
        default=None, description="Generations from this time on are priced by it."
    )
    unit: UsageUnit = UsageUnit.TOKENS
    tiers: list[PricingTier] = Field(min_length=1, max_length=20)
    tokenizer_model: str | None = Field(
        default=None, max_length=200, description="Counts tokens where usage is missing."
    )

    @field_validator("match_pattern")
    @classmethod
    def _pattern(cls, value: str) -> str:
        return _compiles(value, "match_pattern")

    @model_validator(mode="after")
    def _one_default_tier(self) -> ModelTerms:
        defaults = [t.name for t in self.tiers if t.is_default]
        if len(defaults) != 1:
            raise ValueError(f"exactly one tier must be the default, not {len(defaults)}")
        names = [t.name for t in self.tiers]
        if len(set(names)) != len(names):
            raise ValueError("tier names must be unique")
        return self


class ModelSpec(ModelTerms):
    """A project's model definition, as created."""

    project_id: str


class ModelDefinition(Payload):
    """A definition as listed: a project's own, or shipped (``managed``, no project)."""

    id: str
    project_id: str | None = None
    model_name: str
    match_pattern: str
    start_date: datetime | None = None
    unit: UsageUnit = UsageUnit.TOKENS
    tiers: list[PricingTier]
    tokenizer_model: str | None = None
    managed: bool = False
    created_at: datetime | None = None

    @property
    def prices(self) -> dict[str, float]:
        """The default tier's prices."""
        return next(t.prices for t in self.tiers if t.is_default)


class ListModels(Payload):
    project_id: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class ModelPage(Payload):
    """The project's own definitions first (newest first), then the shipped ones."""

    data: list[ModelDefinition]
    meta: PageMeta


class GetModel(Payload):
    project_id: str
    id: str


class DeleteModel(Payload):
    project_id: str
    id: str
