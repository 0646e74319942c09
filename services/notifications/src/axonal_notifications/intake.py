"""A batch of events becomes one transaction and one insert.

The events consumer hands over each batch it fetched (see :mod:`axonal_bus.batches`): what the
events call for is decided in one transaction (see :mod:`axonal_notifications.routing`) and
their deliveries inserted in one statement (keyed by target and event id, so an event seen
again adds nothing). The batch is acknowledged only once that transaction is committed; if it
fails, the batch is retried.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import asyncpg

from axonal_db import transaction
from axonal_events import Subjects
from axonal_notifications import deliveries_store
from axonal_notifications.routing import Received, deliveries_for

__all__ = ["Intake", "Received"]


class Intake:
    """Stores the deliveries a batch of events calls for.

    Args:
        pool: the service's pool (it exists once the service has started).
        subjects: where the events the intake announces go.
        added: called after an insert that added deliveries.
    """

    def __init__(
        self, pool: Callable[[], asyncpg.Pool], subjects: Subjects, added: Callable[[], None]
    ) -> None:
        self.pool = pool
        self.subjects = subjects
        self.added = added

    async def store(self, batch: Sequence[Received]) -> None:
        """Return once the deliveries ``batch`` calls for are committed."""
        async with transaction(self.pool()) as conn:
            new = await deliveries_for(conn, self.subjects, batch)
            count = await deliveries_store.add(conn, new) if new else 0
        if count:
            self.added()
