"""Which deletions a service consumes: those it has a purge for."""

from __future__ import annotations

from axonal_bus.deletion import Purges


async def _purge(conn, data) -> int:
    return 0


def test_a_service_consumes_the_deletions_it_purges():
    assert Purges(project=_purge).types() == ["project.deleted"]
    assert Purges(project=_purge, trace=_purge, run=_purge).types() == [
        "project.deleted",
        "trace.deleted",
        "run.deleted",
    ]
