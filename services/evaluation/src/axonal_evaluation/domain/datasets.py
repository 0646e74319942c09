"""Datasets: their JSON Schemas checked, items validated against them, the next version of an
item merged from an upsert."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

from axonal_events.datasets import DatasetItem, UpsertDatasetItem

__all__ = ["ItemFields", "item_problem", "next_version", "schema_problem"]

#: The fields of an item version that an upsert may change.
ItemFields = dict[str, Any]

_FIELDS = ("input", "expected_output", "metadata", "source_trace_id", "source_observation_id")
_WIRE = {"input": "input", "expected_output": "expectedOutput"}


def schema_problem(name: str, schema: dict[str, Any] | None) -> str | None:
    """Why ``schema`` (the dataset's ``name`` field) is no JSON Schema; ``None`` if it is."""
    if schema is None:
        return None
    try:
        validator_for(schema, default=Draft202012Validator).check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(root)"
        return f"{name} is not a valid JSON Schema at {where}: {exc.message}"
    return None


def _path(parts: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def item_problem(
    fields: ItemFields,
    input_schema: dict[str, Any] | None,
    expected_output_schema: dict[str, Any] | None,
) -> str | None:
    """The first way the item's ``input`` or ``expected_output`` breaks its dataset's schemas,
    naming the field, the path inside it and the problem; ``None`` if it matches."""
    for field, schema in (("input", input_schema), ("expected_output", expected_output_schema)):
        if schema is None:
            continue
        cls = validator_for(schema, default=Draft202012Validator)
        errors = sorted(cls(schema).iter_errors(fields.get(field)), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            return f"{_WIRE[field]}{_path(first.absolute_path)}: {first.message}"
    return None


def next_version(current: DatasetItem | None, request: UpsertDatasetItem) -> ItemFields:
    """The fields of the item's next version: the request's, and the current version's where
    the request leaves one ``None``; a new item is ``ACTIVE`` unless told otherwise."""
    fields: ItemFields = {}
    for name in _FIELDS:
        value = getattr(request, name)
        fields[name] = getattr(current, name) if value is None and current else value
    if request.status is not None:
        fields["status"] = request.status
    else:
        fields["status"] = current.status if current else "ACTIVE"
    return fields
