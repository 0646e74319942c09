"""LLM tracing on OpenTelemetry: ``@observe``, spans, generations, trace fields and scores.

Spans go to the Axonal api over OTLP/HTTP (``/api/public/otel/v1/traces``) and show up as
Langfuse-style traces and observations; scores go to ``/api/public/scores`` in the background.
Needs the ``tracing`` extra (``pip install 'axonal[tracing]'``). Configured from the
environment unless :func:`configure` is called:

- ``AXONAL_TRACING_URL`` or ``AXONAL_API_URL`` (default ``http://127.0.0.1:8000``);
- ``AXONAL_PUBLIC_KEY`` / ``AXONAL_SECRET_KEY`` (or ``LANGFUSE_PUBLIC_KEY`` /
  ``LANGFUSE_SECRET_KEY``), from ``axonal keys create -p owner/project``;
- ``AXONAL_TRACING_ENVIRONMENT`` and ``AXONAL_RELEASE`` (or their ``LANGFUSE_`` names);
- inside a managed run, ``AXONAL_RUN_UUID`` links every trace to the run.

Nothing here raises into the application because an export failed: the first failure is
reported on stderr. :func:`flush` runs at interpreter exit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Unpack

from axonal._trace_attrs import ObservationFields, TraceFields, observation_attributes
from axonal._trace_core import (
    Observation,
    ScoreOptions,
    current_span,
    flush,
    open_span,
    shutdown,
)
from axonal._trace_core import configure as _configure
from axonal._trace_observe import observe
from axonal._trace_provider import TracingConfig, TracingSettings, report_once

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

__all__ = [
    "Observation",
    "configure",
    "flush",
    "get_current_observation",
    "observe",
    "score_current_span",
    "score_current_trace",
    "shutdown",
    "start_as_current_span",
    "start_generation",
    "update_current_span",
    "update_current_trace",
]


def configure(*, exporter: SpanExporter | None = None, **settings: Unpack[TracingSettings]) -> None:
    """Set where traces go: ``url``, ``public_key``, ``secret_key``, ``environment``,
    ``release``, ``run_uuid``; those left out keep the environment's value.

    ``exporter`` replaces the OTLP exporter (an ``InMemorySpanExporter`` in tests, say).
    """
    _configure(TracingConfig.from_env(**settings), exporter)


@contextmanager
def start_as_current_span(name: str, **fields: Unpack[ObservationFields]) -> Iterator[Observation]:
    """A span that is the current one inside the ``with`` block; the block's exception fails it.

    Takes ``as_type`` (default ``span``), ``input``, ``metadata``, ``model``... as keywords.
    """
    fields.setdefault("as_type", "span")
    with open_span(name, observation_attributes(**fields)) as span:
        yield Observation(span)


def start_generation(
    name: str, **fields: Unpack[ObservationFields]
) -> AbstractContextManager[Observation]:
    """A ``generation`` span (an LLM call): ``model=``, ``model_parameters=``, ``input=``...;
    report ``usage_details``/``cost_details`` with ``.update(...)``."""
    fields["as_type"] = "generation"
    return start_as_current_span(name, **fields)


def get_current_observation() -> Observation | None:
    """The handle of the current span, if there is one."""
    span = current_span()
    return Observation(span) if span is not None else None


def _current(what: str) -> Observation | None:
    found = get_current_observation()
    if found is None:
        report_once(f"no-span-{what}", f"{what} outside of a span is ignored")
    return found


def update_current_trace(**fields: Unpack[TraceFields]) -> None:
    """Set fields of the current trace through the current span: ``name``, ``user_id``,
    ``session_id``, ``tags``, ``metadata``, ``input``, ``output``, ``public``."""
    if observation := _current("update_current_trace"):
        observation.update_trace(**fields)


def update_current_span(*, name: str | None = None, **fields: Unpack[ObservationFields]) -> None:
    """Set fields of the current span: ``output``, ``usage_details``, ``cost_details``,
    ``metadata``, ``level``, ``status_message``, ``model``..."""
    if observation := _current("update_current_span"):
        observation.update(name=name, **fields)


def score_current_trace(name: str, value: float | str, **options: Unpack[ScoreOptions]) -> None:
    """Score the current trace: ``NUMERIC``/``BOOLEAN`` numbers, ``CATEGORICAL`` strings
    (``data_type=``, ``comment=``); sent in the background."""
    if observation := _current("score_current_trace"):
        observation.score_trace(name, value, **options)


def score_current_span(name: str, value: float | str, **options: Unpack[ScoreOptions]) -> None:
    """Score the current span (``data_type=``, ``comment=``); sent in the background."""
    if observation := _current("score_current_span"):
        observation.score(name, value, **options)
