"""Compose documents (``-f base.yaml -f patch.yaml``), presets and ``runPatch``.

As in Polyaxon 2.18, the first document is the base and every later document or preset is a
patch applied with its own ``patchStrategy`` (``post_merge`` when unset). A patch never
changes ``kind``, ``version``, ``isPreset``, ``patchStrategy`` or the reference
(``hubRef``/``dagRef``/``urlRef``/``pathRef``/``component``); its ``runPatch`` is merged into
the base's ``runPatch`` (applied to the component's run by :func:`apply_run_patch`).

Strategies, key by key from the patch onto the current value:

* ``replace``: a key set in the patch replaces the current value. Sections of the spec
  (``run``, ``container``, ``environment``, ``termination``...) are walked, so only the keys
  the patch sets change; lists and free-form maps (``labels``, ``resources``, each param...)
  are replaced whole.
* ``isnull``: a key set in the patch is used only where the current value is missing/null.
* ``post_merge`` (default): mappings merge recursively, the patch winning.
* ``pre_merge``: mappings merge recursively, the current value winning.

Lists under the merge strategies follow Polyaxon: the patch's items not already present are
appended (``post_merge``: current then new; ``pre_merge``: patch then the rest of current), so
``init``, ``connections``, ``sidecars``, ``volumes``, ``tags``, ``env``... accumulate. Two
refinements: mapping items with a ``name`` (env vars, volumes, sidecars, ports, inputs,
operations...) are matched by name and merged like mappings instead of duplicated; ``command``
and ``args`` are argument vectors and are replaced (``post_merge``) or kept (``pre_merge``).
A ``null`` in the patch clears the key under ``replace``/``post_merge``. ``run``, ``matrix`` and
``schedule`` of different kinds are not merged: the patch's wins under ``replace``/
``post_merge``, the current one under ``isnull``/``pre_merge``. Each param is one value.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from axonal_spec.base import SpecModel
from axonal_spec.errors import SpecError
from axonal_spec.models import (
    REPLICA_FIELDS,
    DaskCluster,
    DaskReplica,
    KFReplica,
    MPIJob,
    PatchStrategy,
    Polyaxonfile,
    PytorchJob,
    RayCluster,
    RayReplica,
    Runtime,
    TFJob,
    normalize_params,
)
from axonal_spec.parsing import load, spec_error

__all__ = [
    "apply_run_patch",
    "compose",
    "is_preset",
    "patch_values",
    "validate_run_patch",
]

_POST, _PRE = PatchStrategy.POST_MERGE, PatchStrategy.PRE_MERGE
_REPLACE, _ISNULL = PatchStrategy.REPLACE, PatchStrategy.ISNULL
#: Keys a patch never changes (Polyaxon's manual-patch fields).
_FIXED_KEYS = frozenset(
    {"kind", "version", "isPreset", "patchStrategy", "hubRef", "dagRef", "urlRef", "pathRef"}
    | {"component"}
)
_SAME_KIND = frozenset({"run", "matrix", "schedule"})
_POSITIONAL = frozenset({"command", "args"})
_ATOMIC_ENTRIES = frozenset({"params"})
_FREE_FORM = frozenset(
    {"labels", "annotations", "nodeSelector", "affinity", "securityContext", "dnsConfig"}
    | {"runtimeEnv", "metadata", "rayStartParams", "autoscalerOptions", "resources"}
    | {"requests", "limits", "minResources", "valueFrom", "sidecar", "podFailurePolicy"}
    | {"runPatch", "env"}
)
_RUNTIME: TypeAdapter[Any] = TypeAdapter(Runtime)
_CLUSTERS: dict[str, type[SpecModel]] = {
    "tfjob": TFJob,
    "pytorchjob": PytorchJob,
    "mpijob": MPIJob,
    "raycluster": RayCluster,
    "daskcluster": DaskCluster,
}
_REPLICAS: dict[str, type[KFReplica | RayReplica | DaskReplica]] = {
    "tfjob": KFReplica,
    "pytorchjob": KFReplica,
    "mpijob": KFReplica,
    "raycluster": RayReplica,
    "daskcluster": DaskReplica,
}


def is_preset(document: Polyaxonfile) -> bool:
    """A preset fragment: ``isPreset``, or a kindless file with only patchable keys."""
    return document.is_fragment


def compose(
    documents: Sequence[Polyaxonfile | Mapping[str, Any]],
    *,
    presets: Sequence[Polyaxonfile | Mapping[str, Any]] = (),
) -> Polyaxonfile:
    """Patch ``documents[0]`` with each later document, then with each preset, in order.

    Each patch uses its own ``patchStrategy``. Raises :class:`SpecError` if a document or the
    result is invalid.
    """
    if not documents:
        raise SpecError.at("", "nothing to compose: no document given")
    base = _model(documents[0]).to_dict()
    for index, overlay in enumerate([*documents[1:], *presets]):
        patch = _model(overlay, label=f"patch {index + 1}")
        strategy = PatchStrategy(patch.patch_strategy or _POST)
        base = _patch_document(base, _patch_dict(patch), strategy)
    return load(base, location="composed document")


def patch_values(
    current: Any, value: Any, strategy: PatchStrategy | str = _POST, *, key: str | None = None
) -> Any:
    """Patch ``current`` with ``value`` (plain data) under ``strategy``; see the module doc.

    ``key`` is the name the values sit under (it selects the list/kind/param rules).
    """
    strategy = PatchStrategy(strategy)
    if value is None:
        return None if strategy in (_REPLACE, _POST) else current
    if current is None:
        return copy.deepcopy(value)
    if isinstance(current, Mapping) and isinstance(value, Mapping):
        return _patch_mapping(current, value, strategy, key)
    if isinstance(current, list) and isinstance(value, list):
        return _patch_list(current, value, strategy, key)
    return copy.deepcopy(value) if strategy in (_REPLACE, _POST) else current


def validate_run_patch(
    run_patch: Mapping[str, Any], kind: str, replica_types: Sequence[str] | None = None
) -> dict[str, Any]:
    """Check ``run_patch`` against a runtime of ``kind``; return it ready to merge.

    For distributed kinds a patch shaped like one replica (``container``, ``init``...) is
    spread to ``replica_types`` (default: every replica field of the kind), as Polyaxon does.
    Raises :class:`SpecError` located under ``runPatch``.
    """
    patch = dict(run_patch)
    given = patch.pop("kind", kind)
    if given != kind:
        message = f"runPatch.kind {given!r} does not match the run kind {kind!r}"
        raise SpecError.at("runPatch.kind", message)
    try:
        _RUNTIME.validate_python({**patch, "kind": kind})
    except ValidationError as exc:
        replica = _REPLICAS.get(kind)
        if replica is None or set(patch) & _cluster_keys(kind):
            raise spec_error(exc, root=Runtime, prefix=("runPatch",)) from None
        try:
            replica.model_validate(patch)
        except ValidationError as replica_exc:
            raise spec_error(replica_exc, root=replica, prefix=("runPatch",)) from None
        return _spread_replica_patch(patch, kind, replica_types)
    return patch


def apply_run_patch(
    run: Runtime | Mapping[str, Any],
    run_patch: Mapping[str, Any] | None,
    strategy: PatchStrategy | str | None = None,
) -> Runtime:
    """The component's ``run`` patched with an operation's ``runPatch``.

    Raises :class:`SpecError` (under ``runPatch``/``run``) if the patch or result is invalid.
    """
    current: dict[str, Any] = dict(run) if isinstance(run, Mapping) else run.to_dict()
    kind = current.get("kind")
    if not isinstance(kind, str):
        raise SpecError.at("run.kind", "a runPatch needs a run with a kind")
    runtime = _validate_runtime(current)
    if not run_patch:
        return runtime
    types = runtime.replica_types() if hasattr(runtime, "replica_types") else None
    patch = validate_run_patch(run_patch, kind, types)
    merged = patch_values(current, patch, strategy or _POST, key="run")
    merged["kind"] = kind
    return _validate_runtime(merged)


def _validate_runtime(data: Mapping[str, Any]) -> Runtime:
    try:
        runtime: Runtime = _RUNTIME.validate_python(data)
    except ValidationError as exc:
        raise spec_error(exc, root=Runtime, prefix=("run",)) from None
    return runtime


def _cluster_keys(kind: str) -> set[str]:
    """The keys of a distributed runtime itself (not of its replicas)."""
    model = _CLUSTERS[kind]
    return {info.alias or name for name, info in model.model_fields.items()} | set(
        model.model_fields
    )


def _spread_replica_patch(
    patch: dict[str, Any], kind: str, replica_types: Sequence[str] | None
) -> dict[str, Any]:
    types = list(replica_types) if replica_types else list(REPLICA_FIELDS[kind])
    if kind != "raycluster":
        return {name: copy.deepcopy(patch) for name in types}
    spread: dict[str, Any] = {"head": copy.deepcopy(patch)} if "head" in types else {}
    groups = {name: copy.deepcopy(patch) for name in types if name != "head"}
    if groups:
        spread["workers"] = groups
    return spread


def _model(document: Polyaxonfile | Mapping[str, Any], label: str = "base") -> Polyaxonfile:
    if isinstance(document, Polyaxonfile):
        return document
    return load(document, location=label)


def _patch_dict(patch: Polyaxonfile) -> dict[str, Any]:
    """The keys a patch sets (explicit ``null`` included), in file spelling."""
    data: dict[str, Any] = patch.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return data


def _patch_document(
    base: dict[str, Any], patch: Mapping[str, Any], strategy: PatchStrategy
) -> dict[str, Any]:
    result = dict(base)
    for key, value in patch.items():
        if key in _FIXED_KEYS:
            continue
        merged = patch_values(base.get(key), value, strategy, key=key)
        if merged is None:
            result.pop(key, None)
        else:
            result[key] = merged
    return result


def _patch_mapping(
    current: Mapping[str, Any], value: Mapping[str, Any], strategy: PatchStrategy, key: str | None
) -> Any:
    if key in _SAME_KIND and _kinds_differ(current, value):
        return copy.deepcopy(value) if strategy in (_REPLACE, _POST) else current
    if key in _FREE_FORM and strategy in (_REPLACE, _ISNULL):
        return copy.deepcopy(value) if strategy == _REPLACE else current
    atomic = key in _ATOMIC_ENTRIES
    if atomic:
        current, value = normalize_params(current), normalize_params(value)
    result = dict(current)
    for name, item in value.items():
        if atomic and item is not None and result.get(name) is not None:
            merged = copy.deepcopy(item) if strategy in (_REPLACE, _POST) else result[name]
        else:
            merged = patch_values(current.get(name), item, strategy, key=name)
        if merged is None:
            result.pop(name, None)
        else:
            result[name] = merged
    return result


def _kinds_differ(current: Mapping[str, Any], value: Mapping[str, Any]) -> bool:
    return "kind" in value and value["kind"] is not None and current.get("kind") != value["kind"]


def _patch_list(
    current: list[Any], value: list[Any], strategy: PatchStrategy, key: str | None
) -> list[Any]:
    if strategy == _REPLACE or (strategy == _POST and key in _POSITIONAL):
        return copy.deepcopy(value)
    if strategy == _ISNULL or key in _POSITIONAL:
        return current
    return _merge_lists(current, value, strategy)


def _merge_lists(current: list[Any], value: list[Any], strategy: PatchStrategy) -> list[Any]:
    """Append the other side's new items; named mappings are merged by name."""
    first, second = (current, value) if strategy == _POST else (value, current)
    result = [copy.deepcopy(item) for item in first]
    where = {name: i for i, item in enumerate(result) if (name := _item_name(item)) is not None}
    for item in second:
        name = _item_name(item)
        if name is not None and name in where:
            index = where[name]
            old, new = (result[index], item) if strategy == _POST else (item, result[index])
            result[index] = patch_values(old, new, strategy)
        elif name is not None or item not in result:
            if name is not None:
                where[name] = len(result)
            result.append(copy.deepcopy(item))
    return result


def _item_name(item: Any) -> str | None:
    if isinstance(item, Mapping) and isinstance(item.get("name"), str):
        name: str = item["name"]
        return name
    return None
