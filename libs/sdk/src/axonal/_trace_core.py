"""The tracing pipeline of the process, spans with Langfuse error semantics, and their handle.

OpenTelemetry is imported on first use, so ``import axonal.tracing`` stays light.
"""

from __future__ import annotations

import atexit
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from axonal._trace_attrs import (
    AttributeValue,
    ObservationFields,
    TraceFields,
    observation_attributes,
    trace_attributes,
)
from axonal._trace_provider import SCOPE, TracingConfig, build_provider
from axonal._trace_scores import ScoreSender

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.trace import Span, Tracer

__all__ = [
    "Observation",
    "ScoreOptions",
    "configure",
    "current_span",
    "flush",
    "open_span",
    "record_error",
    "send_score",
    "shutdown",
    "start_span",
]


class ScoreOptions(TypedDict, total=False):
    data_type: str | None  # NUMERIC, BOOLEAN (0/1), CATEGORICAL or TEXT; default from the value
    comment: str | None


@dataclass
class _Pipeline:
    config: TracingConfig
    provider: TracerProvider
    tracer: Tracer
    scores: ScoreSender | None = None


_lock = threading.Lock()
_setup_lock = threading.Lock()
_pipeline: _Pipeline | None = None
_exit_registered = False


def configure(config: TracingConfig, exporter: SpanExporter | None = None) -> None:
    """Send spans as ``config`` says (to ``exporter`` when given); replaces the previous setup."""
    global _pipeline, _exit_registered  # noqa: PLW0603 - one pipeline per process
    provider = build_provider(config, exporter)
    fresh = _Pipeline(config, provider, provider.get_tracer(SCOPE))
    with _lock:
        previous, _pipeline = _pipeline, fresh
        if not _exit_registered:
            atexit.register(shutdown)
            _exit_registered = True
    if previous is not None:
        _close(previous)


def _current() -> _Pipeline:
    """The pipeline, set up from the environment by the first span of the process."""
    if _pipeline is None:
        with _setup_lock:
            if _pipeline is None:
                configure(TracingConfig.from_env())
    assert _pipeline is not None
    return _pipeline


def _close(pipeline: _Pipeline) -> None:
    if pipeline.scores is not None:
        pipeline.scores.shutdown()
    pipeline.provider.shutdown()


def flush() -> None:
    """Send every finished span and queued score now; returns when done (or timed out)."""
    pipeline = _pipeline
    if pipeline is None:
        return
    pipeline.provider.force_flush()
    if pipeline.scores is not None:
        pipeline.scores.flush()


def shutdown() -> None:
    """Flush, then stop the pipeline; the next span configures a new one from the environment."""
    global _pipeline
    with _lock:
        pipeline, _pipeline = _pipeline, None
    if pipeline is not None:
        _close(pipeline)


def send_score(score: dict[str, Any]) -> None:
    """Queue one score object for ``POST /api/public/scores`` (never blocks)."""
    pipeline = _current()
    with _lock:
        if pipeline.scores is None:
            pipeline.scores = ScoreSender(pipeline.config)
    if pipeline.config.environment:
        score.setdefault("environment", pipeline.config.environment)
    pipeline.scores.add(score)


def record_error(span: Span, exc: BaseException) -> None:
    """Mark ``span`` failed as Langfuse reads it: level ERROR, status message, the exception."""
    from opentelemetry.trace import Status, StatusCode  # noqa: PLC0415

    message = str(exc) or type(exc).__name__
    span.set_attributes(observation_attributes(level="ERROR", status_message=message))
    span.record_exception(exc)
    span.set_status(Status(StatusCode.ERROR, message))


def start_span(name: str, attributes: Mapping[str, AttributeValue]) -> Span:
    """A new span, child of the current one, that the caller ends."""
    return _current().tracer.start_span(name, attributes=attributes)


@contextmanager
def open_span(name: str, attributes: Mapping[str, AttributeValue]) -> Iterator[Span]:
    """A span that is the current one inside the block; an exception marks it failed."""
    tracer = _current().tracer
    with tracer.start_as_current_span(
        name, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as span:
        try:
            yield span
        except Exception as exc:
            record_error(span, exc)
            raise


def current_span() -> Span | None:
    """The current span, if one is recording."""
    from opentelemetry import trace  # noqa: PLC0415

    span = trace.get_current_span()
    return span if span.is_recording() else None


def _hex_ids(span: Span) -> tuple[str, str]:
    ctx = span.get_span_context()
    return format(ctx.trace_id, "032x"), format(ctx.span_id, "016x")


class Observation:
    """A span seen as a Langfuse observation: update it, its trace, or score either."""

    def __init__(self, span: Span) -> None:
        self.span = span
        self.trace_id, self.id = _hex_ids(span)

    def update(
        self, *, name: str | None = None, **fields: Unpack[ObservationFields]
    ) -> Observation:
        """Set ``output``, ``usage_details``, ``cost_details``, ``metadata``, ``level``..."""
        if name:
            self.span.update_name(name)
        self.span.set_attributes(observation_attributes(**fields))
        return self

    def update_trace(self, **fields: Unpack[TraceFields]) -> Observation:
        """Set trace-level fields (name, user, session, tags...) through this span."""
        self.span.set_attributes(trace_attributes(**fields))
        return self

    def score(self, name: str, value: float | str, **options: Unpack[ScoreOptions]) -> None:
        """Score this observation (sent in the background)."""
        self._score(name, value, options, observation_id=self.id)

    def score_trace(self, name: str, value: float | str, **options: Unpack[ScoreOptions]) -> None:
        """Score this observation's trace (sent in the background)."""
        self._score(name, value, options, observation_id=None)

    def _score(
        self, name: str, value: float | str, options: ScoreOptions, observation_id: str | None
    ) -> None:
        score: dict[str, Any] = {
            "id": secrets.token_hex(16),
            "traceId": self.trace_id,
            "name": name,
            "value": value,
            "timestamp": datetime.now(UTC).isoformat(),
        }
        optional = {
            "observationId": observation_id,
            "dataType": options.get("data_type"),
            "comment": options.get("comment"),
        }
        score.update({key: v for key, v in optional.items() if v is not None})
        send_score(score)
