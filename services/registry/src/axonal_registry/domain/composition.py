"""Prompt composition: ``@@@langfusePrompt:name=NAME|version=N@@@`` (or ``|label=L@@@``) in a
prompt stands for the text of that text prompt, resolved on read, as Langfuse does.

A tag is read only when ``name=`` comes first and one ``version=`` or ``label=`` follows; other
text between ``@@@`` is left as it is. A chain that comes back to a prompt name already on it
is a cycle; chains are at most :data:`MAX_DEPTH` prompts deep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MARKER",
    "MAX_DEPTH",
    "CompositionError",
    "Node",
    "Reference",
    "check_next",
    "embeds",
    "references",
    "substitute",
]

MARKER = "@@@langfusePrompt:"
MAX_DEPTH = 5
_TAG = re.compile(r"@@@langfusePrompt:(.*?)@@@")


class CompositionError(ValueError):
    """A reference that cannot be resolved: a cycle, or a chain too deep."""


@dataclass(frozen=True, slots=True)
class Reference:
    """One embedded prompt: by ``version`` or by ``label``, and the tag that names it."""

    name: str
    version: int | None
    label: str | None
    tag: str

    def __str__(self) -> str:
        return f"{self.name} v{self.version}" if self.version else f"{self.name}@{self.label}"


@dataclass(frozen=True, slots=True)
class Node:
    """A prompt version on a resolution chain."""

    name: str
    version: int

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"


def _text(prompt: str | Sequence[Any]) -> str:
    return prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)


def embeds(prompt: str | Sequence[Any]) -> bool:
    """Whether the prompt holds a tag to resolve (most do not: they are returned as stored)."""
    return MARKER in _text(prompt)


def _parse(inner: str, tag: str) -> Reference | None:
    parts = inner.split("|")
    if len(parts) != 2 or not parts[0].startswith("name="):
        return None
    name = parts[0].removeprefix("name=")
    key, _, value = parts[1].partition("=")
    if not name or not value:
        return None
    if key == "version":
        return Reference(name, int(value), None, tag) if value.isdigit() else None
    return Reference(name, None, value, tag) if key == "label" else None


def references(prompt: str | Sequence[Any]) -> list[Reference]:
    """The prompts a prompt embeds, each tag once, in order of appearance."""
    found = []
    for match in dict.fromkeys(m.group(0) for m in _TAG.finditer(_text(prompt))):
        reference = _parse(match.removeprefix(MARKER).removesuffix("@@@"), match)
        if reference is not None:
            found.append(reference)
    return found


def substitute(prompt: Any, reference: Reference, text: str) -> Any:
    """``prompt`` with every occurrence of the reference's tag replaced by ``text``."""
    if isinstance(prompt, str):
        return prompt.replace(reference.tag, text)
    encoded = json.dumps(prompt, ensure_ascii=False)
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    tag = json.dumps(reference.tag, ensure_ascii=False)[1:-1]
    return json.loads(encoded.replace(tag, escaped))


def check_next(chain: Sequence[Node], child: Node) -> None:
    """Raise when resolving ``child`` after ``chain`` closes a cycle (a name already on the
    chain, whatever its version) or goes deeper than :data:`MAX_DEPTH`."""
    names = [node.name for node in chain]
    if child.name in names:
        start = names.index(child.name)
        cycle = " -> ".join(str(node) for node in [*chain[start:], child])
        raise CompositionError(f"prompt composition has a cycle: {cycle}")
    if len(chain) >= MAX_DEPTH:
        path = " -> ".join(str(node) for node in [*chain, child])
        raise CompositionError(f"prompt composition nests deeper than {MAX_DEPTH}: {path}")
