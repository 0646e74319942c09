"""Score configs: the schema of a score name (the evaluation service owns them).

A config fixes a score's data type and what its values may be: a NUMERIC range (either end
open), CATEGORICAL categories (a label the client sends, mapped to its numeric value), BOOLEAN
(0 or 1, categories ``True``/``False`` made by the service) or TEXT. A score that names a config
(``configId``) is checked against it with :func:`check_score`, the same pure check wherever a
score enters the platform (the api's ingestion, an annotation queue). Configs are archived,
never deleted; an archived config refuses new scores.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import NamedTuple

from pydantic import Field, model_validator

from axonal_events.base import Payload
from axonal_events.trace_reads import PageMeta
from axonal_events.traces import ScoreDataType

__all__ = [
    "BOOLEAN_CATEGORIES",
    "UNKNOWN_CONFIG",
    "CheckedScore",
    "ConfigCategory",
    "CreateScoreConfig",
    "GetScoreConfig",
    "GetScoreConfigs",
    "ListScoreConfigs",
    "ScoreConfig",
    "ScoreConfigList",
    "ScoreConfigPage",
    "ScoreRefused",
    "UpdateScoreConfig",
    "check_score",
    "config_problem",
]

_NAME = re.compile(r"^[A-Za-z0-9_ .()\-]{1,80}$")
UNKNOWN_CONFIG = "The configId you provided does not match a valid config in this project"


class ConfigCategory(Payload):
    """A category of a CATEGORICAL (or BOOLEAN) config: the label sent, the value stored."""

    value: float = Field(allow_inf_nan=False)
    label: str = Field(min_length=1)


BOOLEAN_CATEGORIES = (ConfigCategory(value=1, label="True"), ConfigCategory(value=0, label="False"))


class _Shape(Payload):
    """What a config allows: the fields a create sets and an update may change."""

    name: str | None = None
    categories: list[ConfigCategory] | None = None
    min_value: float | None = Field(default=None, allow_inf_nan=False)
    max_value: float | None = Field(default=None, allow_inf_nan=False)
    description: str | None = Field(default=None, max_length=2000)


_BOOLEAN_PAIRS = {("True", 1.0), ("False", 0.0)}


def _categories_problem(
    data_type: ScoreDataType, categories: list[ConfigCategory] | None
) -> str | None:
    given = categories or []
    problems = {
        ScoreDataType.CATEGORICAL: (
            (not given, "categories: a CATEGORICAL config needs at least one category"),
            (len({c.label for c in given}) < len(given), "categories: labels must be unique"),
            (len({c.value for c in given}) < len(given), "categories: values must be unique"),
        ),
        ScoreDataType.BOOLEAN: (
            (
                bool(given) and {(c.label, c.value) for c in given} != _BOOLEAN_PAIRS,
                "categories: a BOOLEAN config's categories are True (1) and False (0)",
            ),
        ),
    }.get(data_type, ((bool(given), f"categories: a {data_type.value} config has none"),))
    return next((message for broken, message in problems if broken), None)


def config_problem(
    data_type: ScoreDataType,
    name: str,
    categories: list[ConfigCategory] | None,
    min_value: float | None,
    max_value: float | None,
) -> str | None:
    """Why these fields make no config of ``data_type`` (the field named), or None."""
    if not _NAME.match(name):
        return (
            "name: at most 80 letters, digits, underscores, spaces, periods, parentheses "
            "and hyphens"
        )
    if data_type is not ScoreDataType.NUMERIC and (min_value is not None or max_value is not None):
        return f"minValue/maxValue: only a NUMERIC config has a range, not {data_type.value}"
    if min_value is not None and max_value is not None and min_value >= max_value:
        return "maxValue: must be greater than minValue"
    return _categories_problem(data_type, categories)


class CreateScoreConfig(_Shape):
    project_id: str = Field(min_length=1)
    name: str
    data_type: ScoreDataType

    @model_validator(mode="after")
    def _valid(self) -> CreateScoreConfig:
        problem = config_problem(
            self.data_type, self.name, self.categories, self.min_value, self.max_value
        )
        if problem:
            raise ValueError(problem)
        return self


class UpdateScoreConfig(_Shape):
    """The fields given (not None) are changed, the result checked as a whole; None keeps."""

    project_id: str = Field(min_length=1)
    id: str = Field(min_length=1)
    is_archived: bool | None = None


class ScoreConfig(Payload):
    id: str
    project_id: str
    name: str
    data_type: ScoreDataType
    is_archived: bool = False
    min_value: float | None = None
    max_value: float | None = None
    categories: list[ConfigCategory] | None = None
    description: str | None = None
    created_at: datetime
    updated_at: datetime


class GetScoreConfig(Payload):
    project_id: str
    id: str


class GetScoreConfigs(Payload):
    """Several configs at once (the api's check of an ingestion batch)."""

    project_id: str
    ids: list[str] = Field(max_length=1000)


class ScoreConfigList(Payload):
    data: list[ScoreConfig]


class ListScoreConfigs(Payload):
    project_id: str
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=1000)


class ScoreConfigPage(Payload):
    data: list[ScoreConfig]
    meta: PageMeta


class ScoreRefused(ValueError):
    """A score breaks its config; ``status`` is 404 when the config is not there at all."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class CheckedScore(NamedTuple):
    """A score's name, data type and values once its config accepted it."""

    name: str
    data_type: ScoreDataType
    value: float | None
    string_value: str | None


def _against(reason: str) -> ScoreRefused:
    return ScoreRefused(f"Ingested score body not valid against provided config: value - {reason}")


def check_score(
    config: ScoreConfig | None, value: object, *, declared: ScoreDataType | None = None
) -> CheckedScore:
    """``value`` (as the client sent it) checked against ``config``, as Langfuse checks it.

    The score takes the config's name and data type; a CATEGORICAL label is stored with its
    category's value, a BOOLEAN 0/1 with ``True``/``False``. Raises :class:`ScoreRefused`.
    """
    if config is None:
        raise ScoreRefused(UNKNOWN_CONFIG, status=404)
    kind = config.data_type
    if declared is not None and declared is not kind:
        raise ScoreRefused(
            f"Data type mismatch based on config: expected {kind.value}, got {declared.value}"
        )
    if config.is_archived:
        raise ScoreRefused(
            "Config is archived and cannot be used to create new scores. "
            "Please restore the config first."
        )
    if kind is ScoreDataType.NUMERIC or kind is ScoreDataType.BOOLEAN:
        return _checked_number(config, value)
    if not isinstance(value, str):
        raise _against(f"a {kind.value} score takes a string, got {value!r}")
    if kind is ScoreDataType.TEXT:
        if not 1 <= len(value) <= 500:
            raise _against("a TEXT score has 1 to 500 characters")
        return CheckedScore(config.name, kind, None, value)
    found = next((c for c in config.categories or () if c.label == value), None)
    if found is None:
        labels = ", ".join(c.label for c in config.categories or ())
        raise _against(
            f"Value {value} does not map to a valid category. Pass a valid category value "
            f"({labels})."
        )
    return CheckedScore(config.name, kind, found.value, value)


def _checked_number(config: ScoreConfig, value: object) -> CheckedScore:
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if config.data_type is ScoreDataType.BOOLEAN:
        if number is None or number not in (0, 1):
            raise _against("Value must be either 0 or 1")
        return CheckedScore(
            config.name, config.data_type, float(number), "True" if number == 1 else "False"
        )
    if number is None:
        raise _against(f"a NUMERIC score takes a number, got {value!r}")
    if config.max_value is not None and number > config.max_value:
        raise _against(f"Value exceeds maximum value of {config.max_value:g} defined in config")
    if config.min_value is not None and number < config.min_value:
        raise _against(f"Value is below minimum value of {config.min_value:g} defined in config")
    return CheckedScore(config.name, config.data_type, float(number), None)
