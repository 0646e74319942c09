"""``pathRef`` is read on the submitter's machine: the CLI inlines the referenced files.

An operation ``{pathRef: ./train.yaml, ...}`` becomes ``{component: <train.yaml>, ...}``,
recursively (a DAG's operations may refer to files too), each path relative to the file that
names it, as Polyaxon's CLI resolves them. A file without ``pathRef`` is sent unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["InlineError", "inline_path_refs"]


class InlineError(ValueError):
    """A ``pathRef`` that cannot be read, is not a component, or refers back to itself."""


def inline_path_refs(text: str, origin: Path) -> str:
    """``text`` (read from ``origin``) with every ``pathRef`` replaced by its component."""
    if "pathRef" not in text:
        return text
    import yaml  # noqa: PLC0415 - `import axonal` stays light

    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return text  # the api reports the YAML error with its location
    folder = origin.resolve().parent
    inlined = [_inline(doc, folder, frozenset({origin.resolve()})) for doc in docs]
    return yaml.safe_dump_all(inlined, sort_keys=False, allow_unicode=True)


def _inline(node: Any, folder: Path, seen: frozenset[Path]) -> Any:
    if isinstance(node, list):
        return [_inline(item, folder, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("pathRef")
    out = {key: _inline(value, folder, seen) for key, value in node.items() if key != "pathRef"}
    if isinstance(ref, str):
        out["component"] = _component(folder / ref, ref, seen)
    elif ref is not None:
        out["pathRef"] = ref  # not a path: the api names the problem
    return out


def _component(path: Path, ref: str, seen: frozenset[Path]) -> Any:
    import yaml  # noqa: PLC0415

    target = path.resolve()
    if target in seen:
        raise InlineError(f"pathRef {ref!r} refers back to {target.name}: a cycle")
    try:
        component = yaml.safe_load(target.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InlineError(f"pathRef {ref!r}: cannot read {target}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise InlineError(f"pathRef {ref!r}: {target} is not valid YAML: {exc}") from None
    if not isinstance(component, dict):
        raise InlineError(f"pathRef {ref!r}: {target} is not a component (a mapping)")
    return _inline(component, target.parent, seen | {target})
