"""An iterative search: its tuner component, the operation that runs it, and the check of
what it suggests.

The tuner is the user's component (``matrix.tuner.hubRef``). Each of its runs receives the
inputs ``matrix`` (the search space, a dict), ``iteration`` (from 0) and ``trials`` (the
finished trials so far, each ``{"index", "params", "state", "value"}``, a list), plus
``tuner.params``, and writes the output ``suggestions``: a list of param dicts, one trial
each; an empty list ends the search.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from axonal_optimization.domain import spaces
from axonal_optimization.domain.studies import TrialRecord, objective

__all__ = [
    "RESERVED",
    "check",
    "finished",
    "max_iterations",
    "operation",
    "suggestions",
    "trial_uuid",
    "tuner_name",
    "tuner_uuid",
]

#: The inputs the search gives every tuner run (``tuner.params`` may not set them).
RESERVED = ("matrix", "iteration", "trials")
_OUTPUT = "suggestions"


def max_iterations(search_space: Mapping[str, Any]) -> int:
    """How many tuner runs the search makes at most."""
    value = search_space.get("maxIterations")
    if value is None:
        raise ValueError("matrix.maxIterations: an iterative search needs it")
    return int(value)


def check(search_space: Mapping[str, Any]) -> None:
    """``ValueError`` naming what keeps the search from running: no tuner, a reserved tuner
    param, no metric, no ``maxIterations``, a param the search cannot hold."""
    tuner = search_space.get("tuner") or {}
    if not tuner.get("hubRef"):
        raise ValueError("matrix.tuner: an iterative search needs its tuner component (hubRef)")
    for name in tuner.get("params") or {}:
        if name in RESERVED:
            raise ValueError(f"matrix.tuner.params.{name}: the search gives the tuner its {name}")
    objective(dict(search_space))
    max_iterations(search_space)
    spaces.distributions(search_space.get("params") or {})


def tuner_uuid(sweep_uuid: str, iteration: int) -> str:
    """The tuner run of ``iteration``: the same whoever submits it."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:tuner:{sweep_uuid}:{iteration}").hex


def trial_uuid(sweep_uuid: str, number: int) -> str:
    """The run of trial ``number`` of an iterative search (its tuner's suggestion)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:tuner-trial:{sweep_uuid}:{number}").hex


def tuner_name(sweep_name: str | None, sweep_uuid: str, iteration: int) -> str:
    return f"{sweep_name or sweep_uuid[:12]}-tuner-{iteration}"


def finished(trials: Sequence[TrialRecord]) -> list[dict[str, Any]]:
    """The ``trials`` input: each ended trial's number, params, state and value, in order."""
    ended = sorted((t for t in trials if t.state != "running"), key=lambda t: t.number)
    return [
        {"index": t.number, "params": t.params, "state": t.state, "value": t.value} for t in ended
    ]


def operation(search_space: Mapping[str, Any], iteration: int, trials: list[dict[str, Any]]) -> str:
    """The polyaxonfile of tuner run ``iteration`` (JSON text, which is YAML)."""
    tuner = search_space["tuner"]
    given = {"matrix": dict(search_space), "iteration": iteration, "trials": trials}
    params = {**(tuner.get("params") or {}), **{k: {"value": v} for k, v in given.items()}}
    doc: dict[str, Any] = {
        "version": 1.1,
        "kind": "operation",
        "hubRef": tuner["hubRef"],
        "params": params,
    }
    if tuner.get("presets"):
        doc["presets"] = list(tuner["presets"])
    return json.dumps(doc, default=str)


def suggestions(outputs: Mapping[str, Any], params: spaces.Params) -> list[dict[str, Any]]:
    """The trials a tuner run suggests (its ``suggestions`` output), each checked against the
    search's ``params``; ``ValueError`` says what is wrong, naming the suggestion and param."""
    if _OUTPUT not in outputs:
        raise ValueError(f"it wrote no `{_OUTPUT}` output (a list of param dicts)")
    found = outputs[_OUTPUT]
    if isinstance(found, str):  # written as JSON text
        try:
            found = json.loads(found)
        except ValueError:
            raise ValueError(f"`{_OUTPUT}` is not JSON: {found[:80]!r}") from None
    if not isinstance(found, list):
        raise ValueError(f"`{_OUTPUT}` must be a list of param dicts, not {_kind(found)}")
    checked = []
    for index, suggestion in enumerate(found):
        where = f"{_OUTPUT}[{index}]"
        if not isinstance(suggestion, dict):
            raise ValueError(f"{where}: a dict of params, not {_kind(suggestion)}")
        unknown = [name for name in suggestion if params and name not in params]
        if unknown:
            names = ", ".join(params)
            raise ValueError(f"{where}: params.{unknown[0]}: not a param of the search ({names})")
        try:
            spaces.encode(params, suggestion)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        checked.append(dict(suggestion))
    return checked


def _kind(value: Any) -> str:
    return (
        "null"
        if value is None
        else f"a {type(value).__name__} ({json.dumps(value, default=str)[:80]})"
    )
