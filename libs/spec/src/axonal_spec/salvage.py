"""After schema problems, keep checking what does not depend on them.

A file whose schema problems all lie in sections nothing else reads (the Kubernetes-shaped
ones, resources, termination, plugins, cache, schedule) or in the details of an input or
output (its ``type``, ``validation``, ...) is validated again without those values; the rest
can then be compiled, so that bindings, templates, the matrix and the DAG report their
problems in the same run. A problem anywhere else (a kind, a name, a reference, an IO
itself) stops there: what follows depends on it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from axonal_spec.models import Polyaxonfile
from axonal_spec.parsing import error_paths

__all__ = ["salvage"]

#: Sections whose values no other part of the file reads.
_LEAF_SECTIONS = frozenset(
    {"container", "sidecars", "init", "environment", "volumes", "resources"}
    | {"termination", "plugins", "cache", "schedule"}
)
#: Keys of an input or output that nothing else reads (not its name, value or optionality).
_IO_DETAILS = frozenset(
    {"type", "validation", "description", "isFlag", "argFormat", "toEnv", "toInit", "connection"}
)
_ROUNDS = 3  # dropping a value may reveal a problem of its parent (an init item left empty)

Path = tuple[str | int, ...]


def salvage(document: Mapping[str, Any]) -> Polyaxonfile | None:
    """``document`` without the values its leaf problems are about, valid; ``None`` when a
    problem lies elsewhere, or the document is valid as it is (nothing to salvage)."""
    doc: dict[str, Any] = copy.deepcopy(dict(document))
    for attempt in range(_ROUNDS + 1):
        try:
            model = Polyaxonfile.model_validate(doc)
        except ValidationError as exc:
            paths = {tuple(path) for path in error_paths(exc)}
            if attempt == _ROUNDS or not paths or not all(map(_is_leaf, paths)):
                return None
            for path in sorted(paths, key=_order, reverse=True):
                _drop(doc, path)
        else:
            return model if attempt else None
    return None


def _is_leaf(path: Path) -> bool:
    if any(isinstance(part, str) and part in _LEAF_SECTIONS for part in path):
        return True
    for index in range(len(path) - 2):
        section, item, key = path[index : index + 3]
        if section in ("inputs", "outputs") and isinstance(item, int) and key in _IO_DETAILS:
            return True
    return False


def _order(path: Path) -> tuple[tuple[int, int, str], ...]:
    """Later list items first, so that dropping one leaves the indexes of the others."""
    return tuple((1, p, "") if isinstance(p, int) else (0, 0, p) for p in path)


def _drop(doc: Any, path: Path) -> None:
    """Drop the value at ``path``, or its deepest existing parent."""
    parent, key = None, None
    node = doc
    for part in path:
        exists = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if not exists:
            break
        parent, key, node = node, part, node[part]
    if isinstance(parent, dict):
        parent.pop(key, None)
    elif isinstance(parent, list) and isinstance(key, int):
        parent.pop(key)
