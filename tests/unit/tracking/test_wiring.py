"""The tracking service's wiring: every RPC of ``Tracking`` served, and the durables with the
names and options deployments and benchmarks rely on."""

from __future__ import annotations

from axonal_bus.service import ServiceContext
from axonal_events import Rpc, StreamKind
from axonal_events.rpcs import Tracking
from axonal_tracking.app import SERVICE, build_app
from axonal_tracking.settings import TrackingSettings


def test_every_rpc_is_served_and_every_durable_keeps_its_name_and_options(monkeypatch):
    served, consumed = [], []
    monkeypatch.setattr(ServiceContext, "serve", lambda _, rpc, __, **___: served.append(rpc))
    monkeypatch.setattr(ServiceContext, "consume", lambda _, spec, __: consumed.append(spec))
    build_app(TrackingSettings())

    every = [rpc for rpc in vars(Tracking).values() if isinstance(rpc, Rpc)]
    assert sorted(r.method for r in served) == sorted(r.method for r in every)
    options = {
        spec.durable: (
            list(spec.filter_subjects),
            spec.stream,
            spec.workers,
            spec.batch_size,
            spec.ack_wait,
            spec.max_ack_pending,
            spec.policy.max_deliver,
        )
        for spec in consumed
    }
    default_retries = options["tracking-runs"][-1]
    assert options == {
        "tracking-runs": (["axonal.evt.run.created"], StreamKind.EVENTS, 1, 16, 60.0, 1000,
                          default_retries),
        "tracking-metrics": (["axonal.ingest.metrics.>"], StreamKind.INGEST, 1, 32, 30.0, 256, 8),
        "tracking-artifacts": (["axonal.ingest.artifacts.>"], StreamKind.INGEST, 1, 16, 30.0,
                               1000, default_retries),
        "tracking-traces": (["axonal.ingest.traces.>"], StreamKind.INGEST, 2, 16, 60.0, 256,
                            default_retries),
        "tracking-scores": (["axonal.evt.score.created"], StreamKind.EVENTS, 1, 16, 60.0, 1000,
                            default_retries),
        "tracking-deletions": (["axonal.evt.project.deleted", "axonal.evt.trace.deleted",
                                "axonal.evt.run.deleted"], StreamKind.EVENTS, 1, 16, 300.0, 1000,
                               default_retries),
        "tracking-retention": (["axonal.evt.project.retention.changed"], StreamKind.EVENTS, 1, 16,
                               60.0, 1000, default_retries),
    }  # fmt: skip
    assert SERVICE.name == "tracking"
    assert sorted(p.name for p in SERVICE.migrations.glob("*.sql"))[0] == "0001_metrics.sql"
