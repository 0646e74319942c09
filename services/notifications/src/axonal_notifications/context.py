"""What every handler of the notifications service receives first."""

from __future__ import annotations

from collections.abc import Callable

from axonal_bus.service import Service, ServiceContext
from axonal_notifications.domain.targets import TargetGuard
from axonal_notifications.settings import NotificationSettings

__all__ = ["Context"]


class Context(ServiceContext[NotificationSettings]):
    """The service context with what the handlers need beyond the bus and the database.

    Args:
        guard: checks a webhook's or a connection's target before it is stored.
        wake_worker: tells this replica's delivery worker that deliveries are due now (added
            by the intake or put back by a replay); it polls for other replicas' anyway.
    """

    def __init__(
        self,
        service: Service,
        settings: NotificationSettings,
        *,
        guard: TargetGuard,
        wake_worker: Callable[[], None],
    ) -> None:
        super().__init__(service, settings)
        self.guard = guard
        self.wake_worker = wake_worker
