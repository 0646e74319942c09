"""The fields a document sets that the local agent ignores, as warnings (see
:mod:`axonal_spec.support`).

The document is read as written: nested polyaxonfiles (an inline component, DAG operations
and components) with the rows of the root, root shortcuts with the rows of ``run``. A
component the compiler fetched (``hubRef``, ``urlRef``, ``pathRef``) is not in the document:
its compiled ``run`` is read too, for the fields the operation did not already set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from axonal_spec.models import Polyaxonfile
from axonal_spec.outcome import CompiledOperation
from axonal_spec.support import LOCAL, NESTED, SHORTCUTS, SUPPORT, Ignored

__all__ = ["SpecWarning", "ignored_fields"]

_PREFIXES = frozenset(
    ".".join(parts[:end])
    for parts in (path.split(".") for path in SUPPORT)
    for end in range(1, len(parts))
)
_FETCHED = ("hub", "url", "path")


@dataclass(frozen=True)
class SpecWarning:
    """A field set in the document that the ``agent`` will not carry out."""

    location: str
    field: str
    agent: str
    reason: str

    @property
    def message(self) -> str:
        return f"`{self.location}` is ignored by the {self.agent} agent: {self.reason}"


def ignored_fields(
    document: Polyaxonfile, compiled: CompiledOperation | None = None
) -> list[SpecWarning]:
    """Every field ``document`` sets that the local agent ignores, in document order; with
    ``compiled``, also those of the components it fetched."""
    found: list[SpecWarning] = []
    _walk(document.to_dict(), "", "", found)
    if compiled is not None:
        _fetched(document, compiled, "", found)
    return found


def _field(path: str, key: str) -> str | None:
    """The row (or the prefix of rows) of ``key`` under ``path``: the key's own, else ``*``."""
    if not path and key in SHORTCUTS:
        return SHORTCUTS[key]
    for name in (key, "*"):
        field = f"{path}.{name}" if path else name
        if field in SUPPORT or field in _PREFIXES:
            return field
    return None


def _items(value: Any, where: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The mappings of ``value`` (itself, or the items of a list) with their locations."""
    if isinstance(value, Mapping):
        yield value, where
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, Mapping):
                yield item, f"{where}[{index}]"


def _walk(data: Mapping[str, Any], path: str, where: str, found: list[SpecWarning]) -> None:
    for key, value in data.items():
        field = _field(path, str(key))
        if field is None:
            continue
        location = f"{where}.{key}" if where else str(key)
        support = SUPPORT.get(field)
        if isinstance(support, Ignored):
            found.append(SpecWarning(location, field, LOCAL, support.reason))
        elif field == "events":
            _event_values(value, location, found)
        elif field in NESTED:
            for item, at in _items(value, location):
                _walk(item, "", at, found)
        elif field in _PREFIXES:
            for item, at in _items(value, location):
                _walk(item, field, at, found)


_EVENTS = "only run_status_* kinds of an op of the DAG (ops.X) are watched: the op fails"


def _event_values(value: Any, location: str, found: list[SpecWarning]) -> None:
    """An ``events`` trigger on another kind or another run: run, but it fails the op."""
    for trigger, at in _items(value, location):
        kinds = trigger.get("kinds") or []
        if any(not str(kind).startswith("run_status_") for kind in kinds):
            found.append(SpecWarning(f"{at}.kinds", "events.kinds", LOCAL, _EVENTS))
        if trigger.get("ref") and not str(trigger["ref"]).startswith("ops."):
            found.append(SpecWarning(f"{at}.ref", "events.ref", LOCAL, _EVENTS))


def _fetched(
    document: Polyaxonfile, compiled: CompiledOperation, where: str, found: list[SpecWarning]
) -> None:
    """Warnings for the ``run`` of fetched components, down the DAG of inline components."""
    if document.reference_kind in _FETCHED:
        seen = {w.field for w in found if w.location.startswith(where)}
        more: list[SpecWarning] = []
        _walk({"run": compiled.run}, "", where, more)
        found.extend(w for w in more if w.field not in seen)
        return
    prefix = where
    component = document
    if document.component is not None:
        component, prefix = document.component, _at(where, "component")
    dag = component.dag
    if dag is None or not isinstance(dag.operations, list) or not compiled.operations:
        return
    children = {child.name: child for child in compiled.operations}
    for index, op in enumerate(dag.operations):
        child = children.get(op.name)
        if child is not None:
            _fetched(op, child, _at(prefix, f"run.operations[{index}]"), found)


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
