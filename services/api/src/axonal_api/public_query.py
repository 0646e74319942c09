"""Langfuse's list query parameters, read into the tracking service's list requests.

Langfuse names them in camelCase and packs some into strings (``orderBy=timestamp.asc``,
comma-separated ids); a parameter the platform cannot apply is refused with a 400 that names
it, never silently ignored.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from axonal_api.public_auth import PublicError
from axonal_events.api_keys import KeyProject
from axonal_events.trace_reads import Order, ValueCondition

__all__ = ["SHAPING", "ids", "query_of", "refuse_filter", "trace_order", "value_condition"]

Q = TypeVar("Q", bound=BaseModel)
#: Query parameters that shape an answer rather than choose what it holds.
SHAPING = frozenset({"fields", "expandMetadata", "parseIoAsJson", "filter"})
_NO_FILTER = "the filter parameter is not supported here: filter with the query parameters"
_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")
#: Langfuse's ``orderBy`` fields of a trace list.
_TRACE_ORDER_NAMES = (
    "id",
    "timestamp",
    "name",
    "userId",
    "release",
    "version",
    "public",
    "bookmarked",
    "sessionId",
)


def query_of(model: type[Q], project: KeyProject, params: dict[str, Any], **renames: str) -> Q:
    """``model`` from a route's query parameters (Langfuse's camelCase names), unset ones left out.

    Routes pass ``locals()``: their parameters are the query, plus ``gw``, ``project`` and the
    :data:`SHAPING` ones.
    """
    fields = {
        renames.get(name, _SNAKE.sub("_", name).lower()): value
        for name, value in params.items()
        if value is not None and name not in ("gw", "project") and name not in SHAPING
    }
    return model(project_id=project.id, **fields)


_ORDER_FIELDS = {_SNAKE.sub("_", name).lower(): name for name in _TRACE_ORDER_NAMES}


def refuse_filter(filter_json: str | None) -> None:
    """Langfuse's JSON ``filter`` is not applied here: a 400 rather than every row."""
    if filter_json:
        raise PublicError(400, _NO_FILTER, "InvalidRequestError")


def trace_order(order_by: str | None) -> Order | None:
    """Langfuse's ``orderBy`` (``field.asc`` or ``field.desc``), 400 when it is neither."""
    if not order_by:
        return None
    field, _, direction = order_by.rpartition(".")
    snake = _SNAKE.sub("_", field).lower()
    if snake not in _ORDER_FIELDS or direction not in ("asc", "desc"):
        fields = ", ".join(_TRACE_ORDER_NAMES)
        raise PublicError(
            400,
            f"orderBy: {order_by!r} is not [field].[asc|desc] with a field among {fields}",
            "InvalidRequestError",
        )
    return Order.model_validate({"field": snake, "descending": direction == "desc"})


def value_condition(operator: str | None, value: float | None) -> ValueCondition | None:
    """Langfuse's ``operator`` and ``value`` of a score list, 400 when only one is given."""
    if operator is None and value is None:
        return None
    if operator is None or value is None:
        raise PublicError(400, "operator and value: give both or neither", "InvalidRequestError")
    try:
        return ValueCondition.model_validate({"operator": operator, "value": value})
    except ValidationError:
        raise PublicError(
            400,
            f"operator: {operator!r} is not one of <, >, <=, >=, =, !=",
            "InvalidRequestError",
        ) from None


def ids(comma_separated: str | None) -> list[str] | None:
    """A comma-separated list, ``None`` when empty."""
    if not comma_separated:
        return None
    return [part.strip() for part in comma_separated.split(",") if part.strip()]
