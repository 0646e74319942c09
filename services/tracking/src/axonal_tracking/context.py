"""What every handler of the tracking service receives first: the service context, and the
runs it has already looked up (metric batches of a run are frequent, and a run never moves)."""

from __future__ import annotations

from axonal_bus.service import Service, ServiceContext
from axonal_tracking.domain.runs import KnownRuns
from axonal_tracking.settings import TrackingSettings

__all__ = ["Context"]


class Context(ServiceContext[TrackingSettings]):
    """:class:`ServiceContext` with ``known_runs``: the runs metric batches were stored for."""

    def __init__(self, service: Service, settings: TrackingSettings, known_runs: KnownRuns) -> None:
        super().__init__(service, settings)
        self.known_runs = known_runs
