"""Every RPC of the platform, one class per service that answers it.

Servers register a handler per descriptor (``ctx.serve(Scheduler.get_run, get_run)``) and
callers name the same descriptor (``gateway.call(Scheduler.get_run, GetRun(...))``), so
mypy checks that both sides agree on the request and the reply. :data:`ALL_RPCS` lists them
for the AsyncAPI document. ``ping``, answered by every service, is described apart
(:class:`~axonal_events.rpc.PingRequest`).
"""

from __future__ import annotations

from typing import Any

from axonal_events.rpc import Rpc
from axonal_events.rpcs.evaluation import Evaluation
from axonal_events.rpcs.identity import Identity
from axonal_events.rpcs.notifications import Notifications
from axonal_events.rpcs.optimization import Optimization
from axonal_events.rpcs.registry import Registry
from axonal_events.rpcs.scheduler import Scheduler
from axonal_events.rpcs.tracking import Tracking

__all__ = [
    "ALL_RPCS",
    "Evaluation",
    "Identity",
    "Notifications",
    "Optimization",
    "Registry",
    "Scheduler",
    "Tracking",
]


def _declared(*groups: type) -> tuple[Rpc[Any, Any], ...]:
    return tuple(
        value for group in groups for value in vars(group).values() if isinstance(value, Rpc)
    )


#: Every RPC of the platform, in declaration order.
ALL_RPCS = _declared(
    Identity, Scheduler, Tracking, Notifications, Registry, Evaluation, Optimization
)
