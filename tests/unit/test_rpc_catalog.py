"""Every RPC descriptor of ``axonal_events.rpcs`` is served by its service, named as declared,
and listed in the committed AsyncAPI document."""

import json
from pathlib import Path

import pytest

from axonal_bus.service import ServiceContext
from axonal_events import Rpc
from axonal_events.rpcs import (
    ALL_RPCS,
    Identity,
    Notifications,
    Optimization,
    Scheduler,
    Tracking,
)
from axonal_identity.app import build_app as identity_app
from axonal_identity.settings import IdentitySettings
from axonal_notifications.app import build_app as notifications_app
from axonal_notifications.settings import NotificationSettings
from axonal_optimization.app import build_app as optimization_app
from axonal_optimization.settings import OptimizationSettings
from axonal_scheduler.app import build_app as scheduler_app
from axonal_scheduler.settings import SchedulerSettings
from axonal_tracking.app import build_app as tracking_app
from axonal_tracking.settings import TrackingSettings

ASYNCAPI = Path(__file__).resolve().parents[2] / "docs" / "asyncapi.json"
SERVICES = {
    "identity": (Identity, lambda: identity_app(IdentitySettings())),
    "scheduler": (Scheduler, lambda: scheduler_app(SchedulerSettings())),
    "tracking": (Tracking, lambda: tracking_app(TrackingSettings())),
    "notifications": (Notifications, lambda: notifications_app(NotificationSettings())),
    "optimization": (Optimization, lambda: optimization_app(OptimizationSettings())),
}


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_every_descriptor_of_a_service_is_served_by_it(service, monkeypatch):
    group, build = SERVICES[service]
    served: list[Rpc] = []
    monkeypatch.setattr(
        ServiceContext, "serve", lambda _ctx, rpc, _handler, **_options: served.append(rpc)
    )
    build()
    declared = {name: rpc for name, rpc in vars(group).items() if isinstance(rpc, Rpc)}
    assert {rpc.service for rpc in declared.values()} == {service}
    assert all(name == rpc.method for name, rpc in declared.items())
    assert sorted(r.method for r in served) == sorted(declared)


def test_the_asyncapi_document_lists_every_rpc():
    operations = json.loads(ASYNCAPI.read_text())["operations"]
    listed = {key.removeprefix("rpc.") for key in operations if key.startswith("rpc.")}
    assert {f"{rpc.service}.{rpc.method}" for rpc in ALL_RPCS} | {"ping"} == listed
