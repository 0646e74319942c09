"""File-level rules of §1.4 that need several fields of a :class:`Polyaxonfile` at once.

Each check returns ``(sub-location, message)`` problems; the model raises them together.
Rules needing the DAG graph (orphans, cycles) or the matrix live elsewhere.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from axonal_spec.models.fields import is_template
from axonal_spec.models.helpers import Plugins
from axonal_spec.models.params import check_params

if TYPE_CHECKING:
    from axonal_spec.models.polyaxonfile import Polyaxonfile

__all__ = ["REFERENCE_KEYS", "ROOT_RESOURCES", "check_polyaxonfile"]

Problems = list[tuple[tuple[str | int, ...], str]]

#: The keys naming an operation's component (an inline ``component`` may come with one).
REFERENCE_KEYS = ("hubRef", "dagRef", "urlRef", "pathRef")
#: Resource names of the root ``resources`` shortcut (plus any ``<domain>/<resource>``).
ROOT_RESOURCES = ("cpu", "memory", "gpu", "ephemeral-storage")
_QUEUE = re.compile(r"[^/\s]+(/[^/\s]+)?")


def check_polyaxonfile(pf: Polyaxonfile) -> Problems:
    """Every rule below, in file order."""
    return [
        *_references(pf),
        *_kindless_run(pf),
        *_build_on_dag(pf),
        *_service_plugins(pf),
        *_params(pf),
        *_root_resources(pf),
        *_queue(pf),
    ]


def _references(pf: Polyaxonfile) -> Problems:
    """At most one named reference; an inline ``component`` may sit next to it (Polyaxon
    counts it only when it is alone: it is the reference, resolved)."""
    names = dict(zip(("hub", "dag", "url", "path"), REFERENCE_KEYS, strict=False))
    found = [names[kind] for kind in pf.references if kind in names]
    if pf.is_preset or len(found) < 2:
        return []
    return [
        (
            (found[1],),
            f"only one of {', '.join(REFERENCE_KEYS)} may be set, got {' and '.join(found)}",
        )
    ]


def _kindless_run(pf: Polyaxonfile) -> Problems:
    if not isinstance(pf.run, dict) or pf.is_preset or pf.kind is None or pf.references:
        return []
    return [
        (
            ("run", "kind"),
            "run.kind is required (a run without kind only patches a referenced component)",
        )
    ]


def _build_on_dag(pf: Polyaxonfile) -> Problems:
    if pf.build is not None and pf.runtime is not None and pf.runtime.kind == "dag":
        return [(("build",), "build is not allowed on a dag runtime")]
    return []


def _service_plugins(pf: Polyaxonfile) -> Problems:
    kind = pf.run_kind
    if not isinstance(pf.plugins, Plugins) or kind is None or kind == "service":
        return []
    return [
        (("plugins", key), f"plugins.{key} is only allowed on a service runtime, not {kind}")
        for key in ("sandbox", "ssh")
        if getattr(pf.plugins, key) is True
    ]


def _params(pf: Polyaxonfile) -> Problems:
    """Params against the IO of this file's own component or of its inline component."""
    if not pf.params or (pf.runtime is None and pf.component is None):
        return []
    declared = [io.name for io in pf.io()]
    strict = bool(pf.strict_params)
    if pf.component is not None:
        declared += [io.name for io in pf.component.io()]
        strict = strict or bool(pf.component.strict_params)
    return check_params(pf.params, declared, strict=strict)


def _root_resources(pf: Polyaxonfile) -> Problems:
    return [
        (
            ("resources", key),
            f"unknown resource '{key}' (use {', '.join(ROOT_RESOURCES)} or <domain>/<resource>)",
        )
        for key in pf.resources or {}
        if key not in ROOT_RESOURCES and "/" not in key
    ]


def _queue(pf: Polyaxonfile) -> Problems:
    if pf.queue is None or is_template(pf.queue) or _QUEUE.fullmatch(pf.queue):
        return []
    return [
        (("queue",), f"queue must be 'queue-name' or 'agent-name/queue-name', got {pf.queue!r}")
    ]
