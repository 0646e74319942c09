"""Create or update the platform's JetStream streams, idempotently.

``python -m axonal_bus.provision`` runs it once against ``AXONAL_NATS_URL`` (a compose
one-shot service or a Kubernetes Job); ``axonal up`` and the tests call :func:`provision`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import nats.errors
import structlog
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import APIError, NotFoundError, ServerError, ServiceUnavailableError

from axonal_bus.broker import connect_nats
from axonal_bus.settings import BusSettings
from axonal_events import Retention, StreamSpec, Subjects

__all__ = ["ProvisionResult", "provision", "provision_when_ready", "stream_config"]

log = structlog.get_logger(__name__)

_RETENTION = {
    Retention.LIMITS: RetentionPolicy.LIMITS,
    Retention.WORK_QUEUE: RetentionPolicy.WORK_QUEUE,
}
_COMPARED = ("subjects", "retention", "max_age", "duplicate_window", "num_replicas", "discard")
#: JetStream error codes of a cluster still forming: too few peers known for the replicas
#: (no suitable peers, insufficient resources), or no leader yet (temporarily unavailable).
_FORMING = {10005, 10008, 10023}
_RETRY = 0.5


@dataclass(frozen=True, slots=True)
class ProvisionResult:
    stream: str
    action: str  # "created", "updated" or "unchanged"


def stream_config(spec: StreamSpec, replicas: int) -> StreamConfig:
    """The JetStream configuration of one stream spec."""
    return StreamConfig(
        name=spec.name,
        description=spec.description,
        subjects=list(spec.subjects),
        retention=_RETENTION[spec.retention],
        storage=StorageType.FILE,
        max_age=float(spec.max_age_seconds),
        duplicate_window=float(spec.duplicate_window_seconds),
        num_replicas=replicas,
        # Commands must not vanish silently: a full work queue refuses new ones.
        discard=DiscardPolicy.NEW if spec.retention is Retention.WORK_QUEUE else DiscardPolicy.OLD,
    )


def _differs(current: StreamConfig, wanted: StreamConfig) -> list[str]:
    def norm(value: object) -> object:
        return sorted(value) if isinstance(value, list) else value

    return [f for f in _COMPARED if norm(getattr(current, f)) != norm(getattr(wanted, f))]


async def provision(
    js: JetStreamContext, subjects: Subjects, replicas: int = 1
) -> list[ProvisionResult]:
    """Make every stream of ``subjects`` exist with the wanted configuration."""
    results = []
    for spec in subjects.streams():
        wanted = stream_config(spec, replicas)
        try:
            info = await js.stream_info(spec.name)
        except NotFoundError:
            await js.add_stream(config=wanted)
            results.append(ProvisionResult(spec.name, "created"))
            continue
        changed = _differs(info.config, wanted)
        if "retention" in changed:
            raise RuntimeError(
                f"stream {spec.name} has retention {info.config.retention}, wanted "
                f"{wanted.retention}; JetStream cannot change retention: recreate the stream"
            )
        if changed:
            await js.update_stream(config=wanted)
        results.append(ProvisionResult(spec.name, "updated" if changed else "unchanged"))
    return results


def _forming(exc: Exception) -> bool:
    """Whether ``exc`` says the JetStream cluster has not formed yet (worth another try)."""
    if isinstance(exc, ServiceUnavailableError | ServerError):
        return True
    if isinstance(exc, APIError):
        return exc.err_code in _FORMING
    return isinstance(exc, nats.errors.TimeoutError | nats.errors.NoRespondersError)


async def provision_when_ready(
    js: JetStreamContext, subjects: Subjects, replicas: int = 1, timeout: float = 60.0
) -> list[ProvisionResult]:
    """:func:`provision`, tried again while a JetStream cluster is still forming (its nodes
    just started: no leader elected, or too few of them met for ``replicas`` copies)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await provision(js, subjects, replicas)
        except Exception as exc:
            if not _forming(exc) or time.monotonic() > deadline:
                raise
            log.info("provision.waiting", reason=str(exc) or type(exc).__name__)
        await asyncio.sleep(_RETRY)


async def _main() -> None:
    settings = BusSettings()
    nc = await connect_nats(settings, name="axonal-provision")
    try:
        replicas = settings.stream_replicas
        for result in await provision_when_ready(nc.jetstream(), settings.subjects, replicas):
            print(f"{result.stream}: {result.action}")
    finally:
        await nc.close()


if __name__ == "__main__":
    asyncio.run(_main())
