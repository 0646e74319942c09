"""Third-party semantic conventions (OTel gen_ai, OpenInference, Vercel AI, MLflow, Traceloop).

Each function reads a span's attributes (and events) and returns what Langfuse would take from
them when the ``langfuse.observation.*`` key is absent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from axonal_traces.otlp_types import MODEL_KEYS
from axonal_traces.values import json_or_text

__all__ = ["io_pair", "model_name", "model_parameters", "span_name"]

_INDEXED = re.compile(r"^(?P<prefix>.+?)\.(?P<index>\d+)\.(?P<rest>.+)$")
_EVENT_INPUT = ("gen_ai.system.message", "gen_ai.user.message", "gen_ai.tool.message")
_EVENT_OUTPUT = ("gen_ai.assistant.message", "gen_ai.choice")
_PARAMETER_SKIP = {"gen_ai.request.model"}


def model_name(attrs: Mapping[str, Any]) -> str | None:
    for key in MODEL_KEYS:
        value = attrs.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def span_name(attrs: Mapping[str, Any], default: str) -> str:
    for key in ("gen_ai.tool.name", "genkit:name", "logfire.msg", "ai.toolCall.name"):
        value = attrs.get(key)
        if isinstance(value, str) and value:
            return value
    function, operation = attrs.get("ai.telemetry.functionId"), attrs.get("ai.operationId")
    if isinstance(function, str) and isinstance(operation, str):
        return f"{function}:{operation}"
    return default


def model_parameters(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """``gen_ai.request.*`` (but the model), ``llm.invocation_parameters``, finish reasons."""
    params: dict[str, Any] = {}
    invocation = json_or_text(attrs.get("llm.invocation_parameters"))
    if isinstance(invocation, dict):
        params.update(invocation)
    for key, value in attrs.items():
        if key.startswith("gen_ai.request.") and key not in _PARAMETER_SKIP:
            params[key.removeprefix("gen_ai.request.")] = value
    for key, name in (
        ("gen_ai.response.finish_reasons", "finish_reasons"),
        ("gen_ai.system", "system"),
    ):
        if key in attrs:
            params[name] = attrs[key]
    return params


def _indexed(attrs: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Flattened ``<prefix>.N.<field>`` attributes as a list of dicts, by N."""
    rows: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix + "."):
            continue
        match = _INDEXED.match(key)
        if match and match["prefix"] == prefix:
            rows.setdefault(int(match["index"]), {})[match["rest"]] = value
    return [rows[i] for i in sorted(rows)]


def _flattened(attrs: Mapping[str, Any], gen_ai: str, openinference: str) -> list[dict[str, Any]]:
    """``gen_ai.prompt.N.*`` style messages, else OpenInference ``llm.*_messages.N.message.*``."""
    return _indexed(attrs, gen_ai) or [
        {k.removeprefix("message."): v for k, v in row.items()}
        for row in _indexed(attrs, openinference)
    ]


def _event_messages(events: list[dict[str, Any]], names: tuple[str, ...]) -> list[Any]:
    found = []
    for event in events:
        if event.get("name") in names:
            attributes = event.get("attributes") or {}
            found.append({"role": event["name"].split(".")[1], **attributes})
    return found


def _first(attrs: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in attrs and attrs[key] not in (None, ""):
            return json_or_text(attrs[key])
    return None


def _input(attrs: Mapping[str, Any], events: list[dict[str, Any]]) -> Any:
    messages = _first(attrs, "gen_ai.input.messages")
    if messages is not None:
        system = _first(attrs, "gen_ai.system_instructions")
        if system is not None and isinstance(messages, list):
            return [{"role": "system", "content": system}, *messages]
        return messages
    found = _first(
        attrs,
        "gen_ai.tool.call.arguments",
        "gen_ai.content.prompt",
        "input.value",
        "ai.prompt.messages",
        "ai.prompt",
        "mlflow.spanInputs",
        "traceloop.entity.input",
        "pydantic_ai.all_messages",
    )
    if found is not None:
        return found
    return _flattened(attrs, "gen_ai.prompt", "llm.input_messages") or (
        _event_messages(events, _EVENT_INPUT) or None
    )


def _output(attrs: Mapping[str, Any], events: list[dict[str, Any]]) -> Any:
    found = _first(
        attrs,
        "gen_ai.output.messages",
        "gen_ai.tool.call.result",
        "gen_ai.content.completion",
        "output.value",
        "ai.response.text",
        "ai.response.object",
        "ai.response.toolCalls",
        "mlflow.spanOutputs",
        "traceloop.entity.output",
    )
    if found is not None:
        return found
    flattened = _flattened(attrs, "gen_ai.completion", "llm.output_messages")
    if flattened:
        return flattened
    messages = _event_messages(events, _EVENT_OUTPUT)
    if len(messages) == 1:
        return messages[0]
    return messages or None


def io_pair(attrs: Mapping[str, Any], events: list[dict[str, Any]]) -> tuple[Any, Any]:
    """Input and output from framework conventions; ``None`` where none applies."""
    return _input(attrs, events), _output(attrs, events)
