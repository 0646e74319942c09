"""Create or update the platform's JetStream streams, idempotently.

``python -m axonal_bus.provision`` runs it once against ``AXONAL_NATS_URL`` (a compose
one-shot service or a Kubernetes Job); ``axonal up`` and the tests call :func:`provision`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import NotFoundError

from axonal_bus.broker import connect_nats
from axonal_bus.settings import BusSettings
from axonal_events import Retention, StreamSpec, Subjects

__all__ = ["ProvisionResult", "provision", "stream_config"]

_RETENTION = {
    Retention.LIMITS: RetentionPolicy.LIMITS,
    Retention.WORK_QUEUE: RetentionPolicy.WORK_QUEUE,
}
_COMPARED = ("subjects", "retention", "max_age", "duplicate_window", "num_replicas", "discard")


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


async def _main() -> None:
    settings = BusSettings()
    nc = await connect_nats(settings, name="axonal-provision")
    try:
        for result in await provision(nc.jetstream(), settings.subjects, settings.stream_replicas):
            print(f"{result.stream}: {result.action}")
    finally:
        await nc.close()


if __name__ == "__main__":
    asyncio.run(_main())
