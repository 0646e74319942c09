"""OTLP spans -> trace and observation records, as :mod:`axonal_traces.wire` structs (built
without checks: the batch they go out in is checked whole, see :func:`axonal_traces.wire.check`).

Follows Langfuse's ``OtelIngestionProcessor``: every span becomes one observation; a root span
(no parent, or ``langfuse.internal.as_root``) also makes the full trace, a span with trace-level
attributes a partial trace update, and a span of a trace id not seen yet in the export a shallow
trace. The spans come checked from :mod:`axonal_traces.otlp_spans`.

Axonal's own key: ``axonal.run.uuid`` (span or resource attribute) links the trace to a run.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from axonal_events.traces import ObservationLevel, ObservationType
from axonal_traces import otlp_genai, usage
from axonal_traces.experiments import experiment_id
from axonal_traces.otlp_attributes import OtlpFormatError
from axonal_traces.otlp_spans import OtlpSpan, ScopeContext, spans_of
from axonal_traces.otlp_types import infer_type
from axonal_traces.values import as_int, error_reason, json_or_text, json_text, parse_time
from axonal_traces.wire import ExperimentWire, ObservationWire, TraceWire

__all__ = ["RUN_UUID_KEY", "OtlpFormatError", "SpanRecords", "convert_export", "convert_spans"]

#: The attribute (span or resource) naming the Axonal run a trace belongs to.
RUN_UUID_KEY = "axonal.run.uuid"

_TRACE_META = ("langfuse.trace.metadata.", "langfuse.metadata.")
_OBSERVATION_META = "langfuse.observation.metadata."
_TELEMETRY_META = "ai.telemetry.metadata."
_EXPERIMENT = "langfuse.experiment."
#: The key prefixes some rule reads every key of: a span's keys are sorted by them once.
_PREFIXES = (*_TRACE_META, _OBSERVATION_META, _TELEMETRY_META, _EXPERIMENT)
_STATUS_ERROR = {2, "2", "STATUS_CODE_ERROR"}


@dataclass
class SpanRecords:
    """What an export turned into, in span order."""

    traces: list[TraceWire] = field(default_factory=list)
    observations: list[ObservationWire] = field(default_factory=list)


def _by_prefix(attrs: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The attributes under each of :data:`_PREFIXES`, keyed by the rest of their key (most
    spans have none: one test per key)."""
    found: dict[str, dict[str, Any]] = {}
    for key, value in attrs.items():
        if key.startswith(_PREFIXES):
            prefix = next(p for p in _PREFIXES if key.startswith(p))
            found.setdefault(prefix, {})[key.removeprefix(prefix)] = value
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


def _prefixed(
    attrs: Mapping[str, Any],
    whole: str,
    prefixed: Mapping[str, dict[str, Any]],
    prefixes: tuple[str, ...],
) -> dict[str, Any]:
    """A JSON object at ``whole`` merged with ``<prefix><key>`` attributes (JSON-decoded)."""
    found: dict[str, Any] = {}
    parsed = json_or_text(attrs.get(whole)) if whole else None
    if isinstance(parsed, dict):
        found.update(parsed)
    for prefix in prefixes:
        for key, value in prefixed.get(prefix, {}).items():
            found[key] = json_or_text(value)
    return found


def _trace_fields(
    attrs: Mapping[str, Any], prefixed: Mapping[str, dict[str, Any]], obs_meta: Mapping[str, Any]
) -> dict[str, Any]:
    """The trace-level attributes a span carries (empty when none); ``obs_meta`` is the
    span's observation metadata."""
    fields: dict[str, Any] = {}
    telemetry = _prefixed(attrs, "", prefixed, (_TELEMETRY_META,))
    if name := attrs.get("langfuse.trace.name"):
        fields["name"] = str(name)
    user = (
        attrs.get("user.id")
        or attrs.get("langfuse.user.id")
        or obs_meta.get("langfuse_user_id")
        or telemetry.get("userId")
    )
    if user:
        fields["user_id"] = str(user)
    session = (
        attrs.get("session.id")
        or attrs.get("langfuse.session.id")
        or attrs.get("gen_ai.conversation.id")
        or obs_meta.get("langfuse_session_id")
        or telemetry.get("sessionId")
    )
    if session:
        fields["session_id"] = str(session)
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
    metadata = _prefixed(attrs, "langfuse.trace.metadata", prefixed, _TRACE_META)
    if metadata:
        fields["metadata"] = metadata
    for key, name in (("langfuse.trace.input", "input"), ("langfuse.trace.output", "output")):
        if key in attrs:
            fields[name] = json_or_text(attrs[key])
    return fields


def _experiment(prefixed: Mapping[str, dict[str, Any]], project_id: str) -> ExperimentWire | None:
    values = {key.replace(".", "_"): value for key, value in prefixed.get(_EXPERIMENT, {}).items()}
    if not values:
        return None
    link_id = values.pop("id", None)
    if not link_id and values.get("dataset_id") and values.get("name"):
        link_id = experiment_id(project_id, str(values["dataset_id"]), str(values["name"]))
    if not link_id:
        return None
    known = set(ExperimentWire.__struct_fields__) - {"id"}
    fields: dict[str, Any] = {}
    for key, value in values.items():
        if key in known:
            decoded = key in {"metadata", "item_metadata", "item_expected_output"}
            fields[key] = json_or_text(value) if decoded else str(value)
    return ExperimentWire(id=str(link_id), **fields)


_LEVELS = ObservationLevel.__members__


def _level(attrs: Mapping[str, Any], status_code: Any) -> ObservationLevel | None:
    level = attrs.get("langfuse.observation.level")
    if level and (found := _LEVELS.get(str(level).upper())):
        return found
    if status_code in _STATUS_ERROR:
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
    attrs: Mapping[str, Any], obs_meta: Mapping[str, Any], ctx: ScopeContext
) -> dict[str, Any]:
    metadata = dict(obs_meta)
    if not ctx.scope_name.startswith("langfuse"):
        metadata["attributes"] = {
            key: json_text(value) for key, value in attrs.items() if not key.startswith("langfuse.")
        }
    metadata["resourceAttributes"] = ctx.resource
    metadata["scope"] = ctx.scope
    return metadata


def _observation(
    span: OtlpSpan,
    prefixed: Mapping[str, dict[str, Any]],
    obs_meta: Mapping[str, Any],
    event_time: datetime,
    project_id: str,
) -> ObservationWire:
    ctx, attrs, start = span.context, span.attributes, span.start
    kind = infer_type(attrs, ctx.scope_name, ctx.scope_version)
    has_input = "langfuse.observation.input" in attrs
    has_output = "langfuse.observation.output" in attrs
    fallback_in, fallback_out = (None, None)
    if not (has_input and has_output):
        fallback_in, fallback_out = otlp_genai.io_pair(attrs, span.events)
    model_params = json_or_text(attrs.get("langfuse.observation.model.parameters"))
    if not isinstance(model_params, dict):
        model_params = otlp_genai.model_parameters(attrs) or None
    is_generation = kind is ObservationType.GENERATION
    prompt_name = attrs.get("langfuse.observation.prompt.name", attrs.get("langfuse.prompt.name"))
    prompt_version = attrs.get(
        "langfuse.observation.prompt.version", attrs.get("langfuse.prompt.version")
    )
    message = attrs.get("langfuse.observation.status_message") or span.status_message
    return ObservationWire(
        id=span.span_id,
        trace_id=span.trace_id,
        type=kind,
        event_time=event_time,
        parent_observation_id=span.parent_span_id,
        name=otlp_genai.span_name(attrs, span.name),
        start_time=start,
        end_time=span.end,
        completion_start_time=_completion_start(attrs, start),
        input=json_or_text(attrs["langfuse.observation.input"]) if has_input else fallback_in,
        output=json_or_text(attrs["langfuse.observation.output"]) if has_output else fallback_out,
        metadata=_metadata(attrs, obs_meta, ctx),
        level=_level(attrs, span.status_code),
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
        experiment=_experiment(prefixed, project_id),
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
    """Records of every span of an OTLP-JSON ``export``; :class:`OtlpFormatError` if it is
    malformed."""
    return convert_spans(spans_of(export), project_id=project_id)


def convert_spans(spans: list[OtlpSpan], *, project_id: str) -> SpanRecords:
    """Records of checked spans; :class:`OtlpFormatError` if a record refuses a value."""
    try:
        return _convert(spans, project_id)
    except OtlpFormatError:
        raise
    except ValueError as exc:  # a record refused its value (pydantic's errors are ValueErrors)
        raise OtlpFormatError(f"a span cannot be stored: {error_reason(exc)}") from None


def _add_update(
    traces: list[TraceWire],
    repeats: dict[tuple[Any, ...], list[int]],  # positions of the earliest and the latest
    update: TraceWire,
    fields: Mapping[str, Any],
) -> None:
    """Add a partial trace update that sets ``fields``. Of updates that set the same values
    on one trace (SDKs stamp the user and session on every span), only the earliest and the
    latest are kept: merged, they give what all of them do (the earliest time of the trace,
    the latest of each field)."""
    key = (update.id, update.environment, *sorted(fields.items()))
    try:
        kept = repeats.get(key)
    except TypeError:  # a list or an object among the values: not worth comparing
        traces.append(update)
        return
    if kept is None:
        repeats[key] = [len(traces)]
        traces.append(update)
    elif len(kept) == 1:
        kept.append(len(traces))
        traces.append(update)
        if update.event_time < traces[kept[0]].event_time:
            kept.reverse()
    elif update.event_time < traces[kept[0]].event_time:
        traces[kept[0]] = update
    elif update.event_time >= traces[kept[1]].event_time:
        traces[kept[1]] = update


def _convert(spans: list[OtlpSpan], project_id: str) -> SpanRecords:
    records = SpanRecords()
    seen: set[str] = set()
    repeats: dict[tuple[Any, ...], list[int]] = {}
    for span in spans:
        attrs, start = span.attributes, span.start
        event_time = span.end or start
        if event_time is None:
            raise OtlpFormatError(f"span {span.span_id} has no start or end time")
        prefixed = _by_prefix(attrs)
        obs_meta = _prefixed(attrs, "langfuse.observation.metadata", prefixed, (_OBSERVATION_META,))
        observation = _observation(span, prefixed, obs_meta, event_time, project_id)
        records.observations.append(observation)
        trace_id = span.trace_id
        as_root = attrs.get("langfuse.internal.as_root") in (True, "true")
        root = not span.parent_span_id or as_root
        fields = _trace_fields(attrs, prefixed, obs_meta)
        run_uuid = attrs.get(RUN_UUID_KEY) or span.context.resource.get(RUN_UUID_KEY)
        if run_uuid:
            fields["run_uuid"] = str(run_uuid)
        common: dict[str, Any] = {
            "id": trace_id,
            "event_time": event_time,
            "environment": observation.environment,
        }
        if root:
            fields.setdefault("name", observation.name)
            fields.setdefault("input", observation.input)
            fields.setdefault("output", observation.output)
            extra: dict[str, Any] = {
                "release": observation.release,
                "version": observation.version,
            }
            records.traces.append(TraceWire(**common, timestamp=start, **extra, **fields))
        elif fields:
            _add_update(records.traces, repeats, TraceWire(**common, **fields), fields)
        elif trace_id not in seen:
            records.traces.append(TraceWire(**common, timestamp=start))
        seen.add(trace_id)
    return records
