"""What every handler of the tracking service receives first: the service context, the runs
it has already looked up (metric batches of a run are frequent, and a run never moves), and
the artifact store once the service has started (``None`` without ``AXONAL_ARTIFACTS_URL``)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from axonal_bus.service import Service, ServiceContext
from axonal_storage import ArtifactStore, open_store
from axonal_tracking.domain.runs import KnownRuns
from axonal_tracking.settings import TrackingSettings

__all__ = ["Context"]


class Context(ServiceContext[TrackingSettings]):
    """:class:`ServiceContext` with ``known_runs``: the runs metric batches were stored for,
    and ``artifacts``: the artifact store, opened at start-up."""

    def __init__(self, service: Service, settings: TrackingSettings, known_runs: KnownRuns) -> None:
        super().__init__(service, settings)
        self.known_runs = known_runs
        self.artifacts: ArtifactStore | None = None
        self._stores = AsyncExitStack()
        if settings.artifacts_url is not None:
            self.on_startup(self._open_artifacts)
            self.on_shutdown(self._stores.aclose)

    async def _open_artifacts(self) -> None:
        url = self.settings.artifacts_url
        if url is not None:
            self.artifacts = await self._stores.enter_async_context(open_store(url))
