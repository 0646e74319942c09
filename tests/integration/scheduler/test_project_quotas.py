"""A project's concurrent runs quota: its runs over it wait queued (not failed) while other
projects' runs go; a run's end or a raised quota admits the next."""

from __future__ import annotations

from axonal_db import connect
from axonal_events.catalog import ProjectQuotasChanged
from axonal_events.quotas import QuotaLimits
from axonal_testing.agent_double import send
from axonal_testing.waiting import wait_for

from .test_jobs import JOB


async def _limit(scheduler, database_url, runs: int) -> None:
    """Announce the quota as the identity service does; return once the scheduler kept it."""
    changed = ProjectQuotasChanged(
        project_id="p1", owner="acme", name="capped", quotas=QuotaLimits(concurrent_runs=runs)
    )
    await send(scheduler.js, scheduler.subjects.event(changed.type_name), changed)
    conn = await connect(database_url)
    try:

        async def kept() -> bool:
            found = await conn.fetchval(
                "SELECT concurrent_runs FROM scheduler.project_quotas "
                "WHERE owner = 'acme' AND name = 'capped'"
            )
            return bool(found == runs)

        await wait_for(kept, message="quota kept")
    finally:
        await conn.close()


async def test_runs_over_a_projects_quota_wait_queued(scheduler, database_url):
    await _limit(scheduler, database_url, 1)
    first, second, third = [await scheduler.submit(JOB, project="acme/capped") for _ in range(3)]
    other = await scheduler.submit(JOB, project="acme/demo")
    await scheduler.wait_status(first, "scheduled")
    await scheduler.wait_status(other, "scheduled")  # another project is not held up
    assert (await scheduler.get(second)).status == "queued"
    assert (await scheduler.get(third)).status == "queued"

    await scheduler.agent.report(first, 1, "succeeded")  # its slot frees the next
    await scheduler.wait_status(second, "scheduled")
    assert (await scheduler.get(third)).status == "queued"

    await _limit(scheduler, database_url, 5)  # a raised quota admits at once
    await scheduler.wait_status(third, "scheduled")
    for run in (second, third, other):
        await scheduler.agent.report(run, 1, "succeeded")
