"""LLM-as-a-judge: the prompt's variables, the output schema and the checks of an answer."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from typing import Any

import jsonschema

from axonal_evaluation.domain.selectors import MissingField, select

__all__ = [
    "OUTPUT_SCHEMA",
    "BadAnswer",
    "check_answer",
    "render",
    "score_id",
    "variables",
    "variables_of",
]

_VARIABLE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")

#: What every judge answers, enforced by the provider's structured output and checked here.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "score": {"type": "number", "description": "The score, usually between 0 and 1."},
        "reasoning": {"type": "string", "description": "Why, in one or two sentences."},
    },
    "required": ["score", "reasoning"],
    "additionalProperties": False,
}
_VALIDATOR = jsonschema.Draft202012Validator(OUTPUT_SCHEMA)


class BadAnswer(ValueError):
    """The judge's answer breaks the output schema (the message says where)."""


def variables(template: str) -> list[str]:
    """The ``{{variables}}`` of ``template``, in order of first use."""
    return list(dict.fromkeys(_VARIABLE.findall(template)))


def variables_of(
    names: list[str], mapping: Mapping[str, str], document: Mapping[str, Any]
) -> dict[str, Any]:
    """Each variable's value read from ``document`` by its selector (or by its own name).

    Raises :class:`~axonal_evaluation.domain.selectors.MissingField` naming the variable.
    """
    values = {}
    for name in names:
        selector = mapping.get(name, name)
        try:
            values[name] = select(document, selector)
        except MissingField as exc:
            raise MissingField(f"variable '{name}' maps to a missing field: {exc}") from None
    return values


def render(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with each ``{{variable}}`` replaced (non-strings as JSON-ish text)."""

    def value(found: re.Match[str]) -> str:
        got = values[found.group(1)]
        return got if isinstance(got, str) else json.dumps(got, ensure_ascii=False, default=str)

    return _VARIABLE.sub(value, template)


def check_answer(answer: Any) -> tuple[float, str]:
    """``(score, reasoning)`` of an answer; :class:`BadAnswer` when it breaks the schema."""
    errors = sorted(_VALIDATOR.iter_errors(answer), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "answer"
        raise BadAnswer(f"the judge's answer breaks the output schema at {where}: {first.message}")
    return float(answer["score"]), str(answer["reasoning"])


def score_id(job_id: str) -> str:
    """The score a job creates, the same on every retry."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:eval-job:{job_id}").hex
