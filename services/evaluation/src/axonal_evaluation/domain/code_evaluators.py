"""Code evaluators: the variables a function takes, the job that runs it, and its result.

The function is user code, so the service never runs it: each evaluation is an Axonal job
(a process with cpu, memory and time limits, on an agent) running :mod:`code_harness`.
"""

from __future__ import annotations

import ast
import base64
import json
import re
import uuid
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from axonal_evaluation.domain.judging import check_answer
from axonal_evaluation.domain.selectors import MissingField, select
from axonal_events.evaluators import CodeRuntime

__all__ = [
    "EVALUATOR_TAG",
    "CodeSignature",
    "check_runtime",
    "operation",
    "outcome",
    "run_uuid",
    "signature",
    "values_of",
]

#: Every code evaluator's run carries this tag.
EVALUATOR_TAG = "evaluator"
_HARNESS = "code_harness.py"
_SLUG = re.compile(r"[^a-z0-9]+")
_QUANTITY = re.compile(r"^[0-9]*\.?[0-9]+(e[0-9]+)?([kmgtp]i?|[KMGTP]i?|m)?$")


class CodeSignature:
    """What ``evaluate`` takes: the names it needs, the ones with defaults, and whether it
    takes any other keyword (``**kwargs``: then every mapped variable)."""

    def __init__(self, required: list[str], optional: list[str], any_keyword: bool) -> None:
        self.required, self.optional, self.any_keyword = required, optional, any_keyword


def signature(code: str) -> CodeSignature:
    """The signature of the module-level ``evaluate`` of ``code``, read without running it;
    ``ValueError`` says why the code cannot serve (syntax error, no ``evaluate``)."""
    try:
        module = ast.parse(code, filename="evaluator.py")
    except SyntaxError as exc:
        raise ValueError(f"code: line {exc.lineno}: {exc.msg}") from None
    for node in module.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "evaluate":
            if isinstance(node, ast.AsyncFunctionDef):
                raise ValueError("code: evaluate must be a plain function, not async")
            args = node.args
            named = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
            defaults = len(args.defaults)
            positional = [a.arg for a in [*args.posonlyargs, *args.args]]
            with_default = positional[len(positional) - defaults :] if defaults else []
            with_default += [
                a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d
            ]
            required = [n for n in named if n not in with_default]
            return CodeSignature(required, with_default, args.kwarg is not None)
    raise ValueError("code: define a module-level function evaluate(...) returning the score")


def check_runtime(runtime: CodeRuntime) -> None:
    """``ValueError`` naming a cpu or memory limit that is not a quantity (``1``, ``500m``,
    ``512Mi``)."""
    for name, value in (("cpu", runtime.cpu), ("memory", runtime.memory)):
        if not _QUANTITY.match(value.strip()):
            raise ValueError(f"runtime.{name}: {value!r} is not a quantity such as 1, 500m, 512Mi")


def values_of(
    sig: CodeSignature, mapping: Mapping[str, str], document: Mapping[str, Any]
) -> dict[str, Any]:
    """The keyword arguments of ``evaluate`` read from ``document``: each parameter by its
    selector (or its own name); a missing one with a default is left out. Raises
    :class:`MissingField` naming a required parameter that maps to nothing."""
    values: dict[str, Any] = {}
    extra = [k for k in mapping if sig.any_keyword and k not in sig.required + sig.optional]
    for name in [*sig.required, *sig.optional, *extra]:
        try:
            values[name] = select(document, mapping.get(name, name))
        except MissingField as exc:
            if name in sig.required or name in extra:
                raise MissingField(f"variable '{name}' maps to a missing field: {exc}") from None
    return values


def run_uuid(job_id: str) -> str:
    """The one run a job starts, whatever the deliveries."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:eval-code:{job_id}").hex


def _file(filename: str, content: str) -> dict[str, Any]:
    return {"file": {"filename": filename, "content": content}}


def operation(
    *, rule_name: str, job_id: str, code: str, runtime: CodeRuntime, values: dict[str, Any]
) -> str:
    """The polyaxonfile of the job that evaluates ``values`` with ``code`` (JSON text).

    The code and values travel base64-encoded, so nothing in them is read as a template.
    """
    payload = json.dumps({"code": code, "variables": values}, default=str)
    harness = files("axonal_evaluation").joinpath(_HARNESS).read_text()
    name = _SLUG.sub("-", f"eval-{rule_name}".lower()).strip("-")[:60]
    component = {
        "version": 1.1,
        "kind": "component",
        "name": name,
        "description": f"Code evaluator job {job_id}",
        "tags": [EVALUATOR_TAG],
        "termination": {"maxRetries": 0, "timeout": runtime.timeout_seconds},
        "run": {
            "kind": "job",
            "init": [
                _file(_HARNESS, harness),
                _file("payload.b64", base64.b64encode(payload.encode()).decode()),
            ],
            "container": {
                "image": runtime.image,
                "workingDir": "{{ globals.artifacts_path }}",
                "command": [runtime.python, "-u", _HARNESS],
                "resources": {"limits": {"cpu": runtime.cpu, "memory": runtime.memory}},
            },
        },
    }
    return json.dumps(component)


def outcome(status: str, outputs: Mapping[str, Any]) -> tuple[float, str]:
    """``(score, reasoning)`` of a finished evaluator run; ``ValueError`` says why there is
    none (the function's error, the run's status, or outputs that are not a score)."""
    error = outputs.get("error")
    if error:
        raise ValueError(f"the evaluator raised {error}")
    if status != "succeeded":
        raise ValueError(f"the evaluator's run ended {status}")
    try:
        return check_answer(dict(outputs))
    except ValueError as exc:
        raise ValueError(str(exc).replace("judge's answer", "evaluator's outputs")) from None
