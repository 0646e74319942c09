"""OTLP-JSON ``ExportTraceServiceRequest`` -> trace and observation records.

Follows Langfuse's ``OtelIngestionProcessor``: every span becomes one observation; a root span
(no parent, or ``langfuse.internal.as_root``) also makes the full trace, a span with trace-level
attributes a partial trace update, and a span of a trace id not seen yet in the export a shallow
trace. The export is checked whole first: one bad span id refuses it all.

Axonal's own key: ``axonal.run.uuid`` (span or resource attribute) links the trace to a run.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from axonal_events.traces import (
    ExperimentLink,
    ObservationLevel,
    ObservationRecord,
    ObservationType,
    TraceRecord,
)
from axonal_traces import otlp_genai, usage
from axonal_traces.experiments import experiment_id
from axonal_traces.otlp_attributes import OtlpFormatError, attributes
from axonal_traces.otlp_types import infer_type
from axonal_traces.values import (
    as_int,
    error_reason,
    is_hex_id,
    json_or_text,
    json_text,
    nanos_to_datetime,
    parse_time,
)

__all__ = ["RUN_UUID_KEY", "OtlpFormatError", "SpanRecords", "convert_export"]

#: The attribute (span or resource) naming the Axonal run a trace belongs to.
RUN_UUID_KEY = "axonal.run.uuid"

_TRACE_META = ("langfuse.trace.metadata.", "langfuse.metadata.")
_OBSERVATION_META = "langfuse.observation.metadata."
_STATUS_ERROR = {2, "2", "STATUS_CODE_ERROR"}


@dataclass
class SpanRecords:
    """What an export turned into, in span order."""

    traces: list[TraceRecord] = field(default_factory=list)
    observations: list[ObservationRecord] = field(default_factory=list)


@dataclass(frozen=True)
class _Context:
    project_id: str
    resource: dict[str, Any]
    scope_name: str
    scope_version: str
    scope: dict[str, Any]


def _array(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise OtlpFormatError(f"{where} must be an array")
    return value


Times = tuple[datetime | None, datetime | None]


def _check_span(span: Any, where: str) -> Times:
    """The span's start and end, once its ids and shape are checked."""
    if not isinstance(span, dict):
        raise OtlpFormatError(f"{where} must be an object")
    if not is_hex_id(span.get("traceId"), 32):
        raise OtlpFormatError(
            f"{where}: traceId must be 32 hex digits, got {span.get('traceId')!r}"
        )
    if not is_hex_id(span.get("spanId"), 16):
        raise OtlpFormatError(f"{where}: spanId must be 16 hex digits, got {span.get('spanId')!r}")
    parent = span.get("parentSpanId")
    if parent and not is_hex_id(parent, 16):
        raise OtlpFormatError(f"{where}: parentSpanId must be 16 hex digits, got {parent!r}")
    _array(span.get("attributes"), f"{where}.attributes")
    _array(span.get("events"), f"{where}.events")
    times = []
    for key in ("startTimeUnixNano", "endTimeUnixNano"):
        try:
            times.append(nanos_to_datetime(span.get(key)))
        except (TypeError, ValueError, OverflowError):
            raise OtlpFormatError(f"{where}: {key} is not a time in nanoseconds") from None
    return times[0], times[1]


def _spans(export: Any, project_id: str) -> list[tuple[_Context, dict[str, Any], Times]]:
    """Every span with its resource and scope and its times, after checking the whole export."""
    if not isinstance(export, dict):
        raise OtlpFormatError("the export must be a JSON object")
    found = []
    for r, resource_spans in enumerate(_array(export.get("resourceSpans"), "resourceSpans")):
        where = f"resourceSpans[{r}]"
        if not isinstance(resource_spans, dict):
            raise OtlpFormatError(f"{where} must be an object")
        resource = attributes((resource_spans.get("resource") or {}).get("attributes"), where)
        for s, scope_spans in enumerate(_array(resource_spans.get("scopeSpans"), where)):
            inner = f"{where}.scopeSpans[{s}]"
            if not isinstance(scope_spans, dict):
                raise OtlpFormatError(f"{inner} must be an object")
            scope = scope_spans.get("scope") or {}
            context = _Context(
                project_id=project_id,
                resource=resource,
                scope_name=str(scope.get("name") or ""),
                scope_version=str(scope.get("version") or ""),
                scope={
                    "name": scope.get("name"),
                    "version": scope.get("version"),
                    "attributes": attributes(scope.get("attributes"), inner),
                },
            )
            for i, span in enumerate(_array(scope_spans.get("spans"), f"{inner}.spans")):
                found.append((context, span, _check_span(span, f"{inner}.spans[{i}]")))
    return found


def _pick(attrs: Mapping[str, Any], resource: Mapping[str, Any], *keys: str) -> str | None:
    for source in (attrs, resource):
        for key in keys:
            value = source.get(key)
            if value not in (None, ""):
                return str(value)
    return None


def _tags(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        parsed = json_or_text(value)
        value = parsed if isinstance(parsed, list) else [t.strip() for t in value.split(",")]
    if isinstance(value, list):
        return [str(t) for t in value if str(t)]
    return [str(value)]


def _prefixed(attrs: Mapping[str, Any], whole: str, prefixes: tuple[str, ...]) -> dict[str, Any]:
    """A JSON object at ``whole`` merged with ``<prefix><key>`` attributes (JSON-decoded)."""
    found: dict[str, Any] = {}
    parsed = json_or_text(attrs.get(whole))
    if isinstance(parsed, dict):
        found.update(parsed)
    for key, value in attrs.items():
        if key.startswith(prefixes):  # rarely: one test of all prefixes first
            prefix = next(p for p in prefixes if key.startswith(p))
            found[key.removeprefix(prefix)] = json_or_text(value)
    return found


def _observation_metadata(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return _prefixed(attrs, "langfuse.observation.metadata", (_OBSERVATION_META,))


def _trace_fields(attrs: Mapping[str, Any], obs_meta: Mapping[str, Any]) -> dict[str, Any]:
    """The trace-level attributes a span carries (empty when none); ``obs_meta`` is the
    span's observation metadata."""
    fields: dict[str, Any] = {}
    telemetry = _prefixed(attrs, "", ("ai.telemetry.metadata.",))
    if name := attrs.get("langfuse.trace.name"):
        fields["name"] = str(name)
    candidates = {
        "user_id": (attrs.get("user.id"), attrs.get("langfuse.user.id"),
                    obs_meta.get("langfuse_user_id"), telemetry.get("userId")),
        "session_id": (attrs.get("session.id"), attrs.get("langfuse.session.id"),
                       attrs.get("gen_ai.conversation.id"), obs_meta.get("langfuse_session_id"),
                       telemetry.get("sessionId")),
    }  # fmt: skip
    for name, values in candidates.items():
        found = next((v for v in values if v), None)
        if found:
            fields[name] = str(found)
    for key in ("langfuse.trace.tags", "langfuse.tags", "tag.tags"):
        if key in attrs:
            fields["tags"] = _tags(attrs[key])
            break
    else:
        extra = obs_meta.get("langfuse_tags") or telemetry.get("tags")
        if extra is not None:
            fields["tags"] = _tags(extra)
    for key in ("langfuse.trace.public", "langfuse.public"):
        if key in attrs:
            fields["public"] = attrs[key] in (True, "true", "True", 1)
            break
    metadata = _prefixed(attrs, "langfuse.trace.metadata", _TRACE_META)
    if metadata:
        fields["metadata"] = metadata
    for key, name in (("langfuse.trace.input", "input"), ("langfuse.trace.output", "output")):
        if key in attrs:
            fields[name] = json_or_text(attrs[key])
    return fields


def _experiment(attrs: Mapping[str, Any], project_id: str) -> ExperimentLink | None:
    values = {
        key.removeprefix("langfuse.experiment.").replace(".", "_"): value
        for key, value in attrs.items()
        if key.startswith("langfuse.experiment.")
    }
    if not values:
        return None
    link_id = values.pop("id", None)
    if not link_id and values.get("dataset_id") and values.get("name"):
        link_id = experiment_id(project_id, str(values["dataset_id"]), str(values["name"]))
    if not link_id:
        return None
    known = set(ExperimentLink.model_fields) - {"id"}
    fields: dict[str, Any] = {}
    for key, value in values.items():
        if key in known:
            decoded = key in {"metadata", "item_metadata", "item_expected_output"}
            fields[key] = json_or_text(value) if decoded else str(value)
    return ExperimentLink(id=str(link_id), **fields)


def _level(attrs: Mapping[str, Any], status: Mapping[str, Any]) -> ObservationLevel | None:
    level = str(attrs.get("langfuse.observation.level") or "").upper()
    if level in ObservationLevel.__members__:
        return ObservationLevel[level]
    if status.get("code") in _STATUS_ERROR:
        return ObservationLevel.ERROR
    return None


def _completion_start(attrs: Mapping[str, Any], start: datetime | None) -> datetime | None:
    try:
        found = parse_time(attrs.get("langfuse.observation.completion_start_time"))
    except ValueError:
        found = None
    first_chunk = attrs.get("ai.response.msToFirstChunk")
    if found is None and start is not None and isinstance(first_chunk, int | float):
        found = start + timedelta(milliseconds=float(first_chunk))
    return found


def _cost(attrs: Mapping[str, Any]) -> dict[str, float] | None:
    details = json_or_text(attrs.get("langfuse.observation.cost_details"))
    if isinstance(details, dict):
        return {
            str(k): float(v)
            for k, v in details.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        }
    for key in ("gen_ai.usage.cost", "llm.cost.total"):
        value = attrs.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return {"total": float(value)}
    return None


def _usage(attrs: Mapping[str, Any]) -> dict[str, int] | None:
    details = json_or_text(attrs.get("langfuse.observation.usage_details"))
    if isinstance(details, dict):
        return usage.from_client(details)
    return usage.from_attributes(attrs) or None


def _metadata(
    attrs: Mapping[str, Any], obs_meta: Mapping[str, Any], ctx: _Context
) -> dict[str, Any]:
    metadata = dict(obs_meta)
    if not ctx.scope_name.startswith("langfuse"):
        metadata["attributes"] = {
            key: json_text(value) for key, value in attrs.items() if not key.startswith("langfuse.")
        }
    metadata["resourceAttributes"] = ctx.resource
    metadata["scope"] = ctx.scope
    return metadata


def _events(span: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"name": event.get("name"), "attributes": attributes(event.get("attributes"), "event")}
        for event in span.get("events") or []
        if isinstance(event, dict)
    ]


def _observation(
    ctx: _Context,
    span: Mapping[str, Any],
    attrs: Mapping[str, Any],
    obs_meta: Mapping[str, Any],
    times: Times,
    event_time: datetime,
) -> ObservationRecord:
    start, end = times
    kind = infer_type(attrs, ctx.scope_name, ctx.scope_version)
    status = span.get("status") or {}
    fallback_in, fallback_out = (None, None)
    if "langfuse.observation.input" not in attrs or "langfuse.observation.output" not in attrs:
        fallback_in, fallback_out = otlp_genai.io_pair(attrs, _events(span))
    model_params = json_or_text(attrs.get("langfuse.observation.model.parameters"))
    if not isinstance(model_params, dict):
        model_params = otlp_genai.model_parameters(attrs) or None
    is_generation = kind is ObservationType.GENERATION
    prompt_name = attrs.get("langfuse.observation.prompt.name", attrs.get("langfuse.prompt.name"))
    prompt_version = attrs.get(
        "langfuse.observation.prompt.version", attrs.get("langfuse.prompt.version")
    )
    message = attrs.get("langfuse.observation.status_message") or status.get("message")
    return ObservationRecord(
        id=span["spanId"],
        trace_id=span["traceId"],
        type=kind,
        event_time=event_time,
        parent_observation_id=span.get("parentSpanId") or None,
        name=otlp_genai.span_name(attrs, str(span.get("name") or "")),
        start_time=start,
        end_time=end,
        completion_start_time=_completion_start(attrs, start),
        input=json_or_text(attrs["langfuse.observation.input"])
        if "langfuse.observation.input" in attrs
        else fallback_in,
        output=json_or_text(attrs["langfuse.observation.output"])
        if "langfuse.observation.output" in attrs
        else fallback_out,
        metadata=_metadata(attrs, obs_meta, ctx),
        level=_level(attrs, status),
        status_message=str(message) if message else None,
        version=_pick(attrs, {}, "langfuse.version") or _pick({}, ctx.resource, "service.version"),
        release=_pick(attrs, ctx.resource, "langfuse.release"),
        environment=_environment(attrs, ctx.resource),
        model=otlp_genai.model_name(attrs),
        model_parameters=model_params,
        usage_details=_usage(attrs),
        cost_details=_cost(attrs),
        prompt_name=str(prompt_name) if is_generation and prompt_name else None,
        prompt_version=as_int(prompt_version) if is_generation else None,
        experiment=_experiment(attrs, ctx.project_id),
    )


def _environment(attrs: Mapping[str, Any], resource: Mapping[str, Any]) -> str:
    found = _pick(
        attrs,
        resource,
        "langfuse.environment",
        "deployment.environment.name",
        "deployment.environment",
    )
    return (found or "default").lower()


def convert_export(export: Any, *, project_id: str) -> SpanRecords:
    """Records of every span of ``export``; :class:`OtlpFormatError` if it is malformed."""
    try:
        return _convert(export, project_id)
    except OtlpFormatError:
        raise
    except ValueError as exc:  # a record refused its value (pydantic's errors are ValueErrors)
        raise OtlpFormatError(f"a span cannot be stored: {error_reason(exc)}") from None


def _convert(export: Any, project_id: str) -> SpanRecords:
    records = SpanRecords()
    seen: set[str] = set()
    for ctx, span, (start, end) in _spans(export, project_id):
        attrs = attributes(span.get("attributes"), "span")
        event_time = end or start
        if event_time is None:
            raise OtlpFormatError(f"span {span['spanId']} has no start or end time")
        obs_meta = _observation_metadata(attrs)
        observation = _observation(ctx, span, attrs, obs_meta, (start, end), event_time)
        records.observations.append(observation)
        trace_id = span["traceId"]
        as_root = attrs.get("langfuse.internal.as_root") in (True, "true")
        root = not span.get("parentSpanId") or as_root
        fields = _trace_fields(attrs, obs_meta)
        run_uuid = attrs.get(RUN_UUID_KEY) or ctx.resource.get(RUN_UUID_KEY)
        if run_uuid:
            fields["run_uuid"] = str(run_uuid)
        common = {
            "id": trace_id,
            "event_time": event_time,
            "environment": observation.environment,
        }
        if root:
            fields.setdefault("name", observation.name)
            fields.setdefault("input", observation.input)
            fields.setdefault("output", observation.output)
            extra = {"release": observation.release, "version": observation.version}
            records.traces.append(TraceRecord(**common, timestamp=start, **extra, **fields))
        elif fields:
            records.traces.append(TraceRecord(**common, **fields))
        elif trace_id not in seen:
            records.traces.append(TraceRecord(**common, timestamp=start))
        seen.add(trace_id)
    return records
