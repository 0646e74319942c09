"""JSONPath-like selectors: ``input``, ``output.answer``, ``metadata.x[0]``, ``trace.name``.

A selector is dot-separated keys, each optionally followed by ``[index]`` list indexes; a
leading ``$.`` is allowed. :func:`select` reads it from a JSON-like document and raises
:class:`MissingField` naming the first part that is not there.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MissingField", "Step", "parse", "select"]

_PART = re.compile(r"^([A-Za-z_][A-Za-z0-9_\-]*)((?:\[-?[0-9]+\])*)$")
_INDEX = re.compile(r"\[(-?[0-9]+)\]")

Step = str | int


class MissingField(LookupError):
    """The document has no value at the selector (the message names where it stops)."""


def parse(selector: str) -> list[Step]:
    """``"metadata.x[0]"`` -> ``["metadata", "x", 0]``; ``ValueError`` names a bad part."""
    text = selector.strip()
    text = text[2:] if text.startswith("$.") else text
    if not text:
        raise ValueError("a selector cannot be empty")
    steps: list[Step] = []
    for part in text.split("."):
        found = _PART.match(part)
        if not found:
            raise ValueError(f"bad selector part '{part}' in '{selector}'")
        steps.append(found.group(1))
        steps.extend(int(i) for i in _INDEX.findall(found.group(2)))
    return steps


def select(document: Any, selector: str) -> Any:
    """The value at ``selector`` in ``document``; :class:`MissingField` when absent."""
    value = document
    walked: list[str] = []
    for step in parse(selector):
        if isinstance(step, int):
            if not isinstance(value, list) or not -len(value) <= step < len(value):
                raise MissingField(f"'{selector}': no item [{step}] at '{'.'.join(walked)}'")
            value = value[step]
            walked[-1] += f"[{step}]"
            continue
        if not isinstance(value, dict) or step not in value or value[step] is None:
            where = ".".join([*walked, step])
            raise MissingField(f"'{selector}': field '{where}' is missing")
        value = value[step]
        walked.append(step)
    return value
