"""Subject and stream names. Subjects are built here and nowhere else.

Every name lives under a *namespace* (``axonal`` by default). Tests and side-by-side
installations use another namespace so they never see each other's messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["DEFAULT_NAMESPACE", "Retention", "StreamKind", "StreamSpec", "Subjects"]

DEFAULT_NAMESPACE = "axonal"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")


def _token(value: str, what: str) -> str:
    if not _TOKEN.match(value):
        raise ValueError(f"{what} {value!r} must be one subject token of letters, digits, - or _")
    return value


def _dotted(value: str, what: str) -> str:
    parts = value.split(".")
    for i, part in enumerate(parts):
        if part == "*" or (part == ">" and i == len(parts) - 1):
            continue
        _token(part, what)
    return value


class StreamKind(StrEnum):
    """The five JetStream streams of the platform."""

    EVENTS = "EVENTS"
    COMMANDS = "COMMANDS"
    INGEST = "INGEST"
    DLQ = "DLQ"
    ADVISORIES = "ADVISORIES"


class Retention(StrEnum):
    LIMITS = "limits"
    WORK_QUEUE = "workqueue"


@dataclass(frozen=True, slots=True)
class StreamSpec:
    """What a stream captures and keeps; provisioning turns this into a JetStream config."""

    kind: StreamKind
    name: str
    subjects: tuple[str, ...]
    retention: Retention
    max_age_seconds: int
    description: str
    duplicate_window_seconds: int = 120


@dataclass(frozen=True, slots=True)
class Subjects:
    """Subject and stream builders for one namespace."""

    namespace: str = DEFAULT_NAMESPACE

    def __post_init__(self) -> None:
        _token(self.namespace, "namespace")

    def event(self, event_type: str) -> str:
        """``<ns>.evt.<domain>.<event>`` for an event type such as ``run.succeeded``.

        ``*`` and ``>`` are accepted in place of tokens, to build consumer filters
        (``run.*``, ``run.>``).
        """
        domain, _, name = event_type.partition(".")
        if not name:
            raise ValueError(f"event type {event_type!r} must look like '<domain>.<event>'")
        return f"{self.namespace}.evt.{_token(domain, 'domain')}.{_dotted(name, 'event')}"

    def events(self, domain: str = ">") -> str:
        """Filter for every event, or every event of one domain."""
        if domain == ">":
            return f"{self.namespace}.evt.>"
        return f"{self.namespace}.evt.{_token(domain, 'domain')}.>"

    def command(self, service: str, verb: str) -> str:
        return f"{self.namespace}.cmd.{_token(service, 'service')}.{_token(verb, 'verb')}"

    def agent_queue(self, queue: str) -> str:
        """Work for the agents of ``queue`` (``gpu/a100`` -> ``<ns>.cmd.agent.gpu.a100``)."""
        return f"{self.namespace}.cmd.agent.{_dotted(queue.replace('/', '.'), 'queue')}"

    def commands(self, service: str) -> str:
        return f"{self.namespace}.cmd.{_token(service, 'service')}.>"

    def applied(self, command_id: str) -> str:
        """Core NATS notice that the command ``command_id`` is applied (committed)."""
        return f"{self.namespace}.applied.{_token(command_id, 'command id')}"

    def rpc(self, service: str, method: str) -> str:
        return f"{self.namespace}.rpc.{_token(service, 'service')}.{_token(method, 'method')}"

    def ingest(self, kind: str) -> str:
        return f"{self.namespace}.ingest.{_dotted(kind, 'ingest kind')}"

    def external(self, source: str, event_type: str) -> str:
        return f"{self.namespace}.ext.{_token(source, 'source')}.{_dotted(event_type, 'type')}"

    def externals(self, source: str | None = None) -> str:
        """Filter for every event outside systems posted, or those of one ``source``."""
        if source is None:
            return f"{self.namespace}.ext.>"
        return f"{self.namespace}.ext.{_token(source, 'source')}.>"

    def dlq(self, consumer: str) -> str:
        return f"{self.namespace}.dlq.{_token(consumer, 'consumer')}"

    def inbox_prefix(self, service: str) -> str:
        """Reply subjects of one service, so its NATS user can be limited to them."""
        return f"_INBOX_{self.namespace}_{_token(service, 'service')}"

    def stream_name(self, kind: StreamKind) -> str:
        return f"{self.namespace.upper().replace('-', '_')}_{kind.value}"

    def advisory_subjects(self) -> tuple[str, ...]:
        """Max-deliveries advisories of this namespace's streams (core NATS, captured)."""
        return tuple(
            f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{self.stream_name(kind)}.*"
            for kind in (StreamKind.EVENTS, StreamKind.COMMANDS, StreamKind.INGEST)
        )

    def streams(self) -> tuple[StreamSpec, ...]:
        """The platform's streams with their subjects and retention."""
        day = 24 * 3600
        ns = self.namespace
        return (
            StreamSpec(
                StreamKind.EVENTS,
                self.stream_name(StreamKind.EVENTS),
                (self.events(), self.externals()),
                Retention.LIMITS,
                30 * day,
                "Facts: every state change, fanned out to durable consumers; replayable.",
            ),
            StreamSpec(
                StreamKind.COMMANDS,
                self.stream_name(StreamKind.COMMANDS),
                (f"{ns}.cmd.>",),
                Retention.WORK_QUEUE,
                7 * day,
                "Commands: each handled once by the one service they address.",
            ),
            StreamSpec(
                StreamKind.INGEST,
                self.stream_name(StreamKind.INGEST),
                (f"{ns}.ingest.>",),
                Retention.WORK_QUEUE,
                7 * day,
                "High-volume tracking data (metrics, logs, spans), in batches.",
            ),
            StreamSpec(
                StreamKind.DLQ,
                self.stream_name(StreamKind.DLQ),
                (f"{ns}.dlq.>",),
                Retention.LIMITS,
                30 * day,
                "Dead letters: messages a consumer gave up on, with the reason and origin.",
            ),
            StreamSpec(
                StreamKind.ADVISORIES,
                self.stream_name(StreamKind.ADVISORIES),
                self.advisory_subjects(),
                Retention.LIMITS,
                7 * day,
                "JetStream max-delivery advisories, relayed to the DLQ.",
            ),
        )
