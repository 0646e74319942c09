"""A diverging job on the embedded stack: its NaN and infinite losses are stored and read back
as such, a ``loss is nan`` rule fires once, and the job ends ``succeeded``."""

from __future__ import annotations

import asyncio
import json
import sys

import asyncpg
import pytest

from axonal_testing.waiting import wait_for_sync

from .lifecycle_support import User, job

pytestmark = pytest.mark.slow  # real processes on the embedded stack

SCRIPT = """
from axonal.tracking import log_metrics
losses = [1.0, 0.5, float("nan"), float("nan"), float("inf"), -float("inf"), 0.25]
for step, loss in enumerate(losses):
    log_metrics(step=step, loss=loss)
log_metrics(step=7, loss=0.125, note="diverged")
"""


async def _crossings(database_url: str, run_uuid: str) -> list[tuple[dict[str, object], bool]]:
    """The run's ``metric.crossed`` events in the tracking outbox: data, and whether published."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT convert_from(payload, 'UTF8') AS doc, published_at IS NOT NULL AS sent "
            "FROM tracking.outbox WHERE subject LIKE '%.metric.crossed' "
            "AND convert_from(payload, 'UTF8')::jsonb -> 'data' ->> 'run_uuid' = $1",
            run_uuid,
        )
    finally:
        await conn.close()
    return [(json.loads(row["doc"])["data"], row["sent"]) for row in rows]


def test_a_job_logging_nan_and_infinity_succeeds_and_a_nan_rule_fires_once(user: User) -> None:
    rule = user.cli_json("alerts", "create", "loss", "is", "nan")
    assert (rule["comparison"], rule["threshold"]) == ("is_nan", None)

    uuid = user.run(job([sys.executable, "-c", SCRIPT]))
    run = user.wait_done(uuid)
    assert run["status"] == "succeeded", run

    def stored() -> dict[str, object] | None:
        found = user.cli_json("ops", "metrics", uuid)
        return found if sum(s["total"] for s in found["series"]) == 8 else None

    [loss] = wait_for_sync(stored, message="8 points")["series"]  # type: ignore[index]
    assert [(p["step"], p["value"]) for p in loss["points"]] == list(
        enumerate([1.0, 0.5, "NaN", "NaN", "Infinity", "-Infinity", 0.25, 0.125])
    )
    assert "axonal.tracking: metric 'note': 'diverged' is not a number" in "\n".join(
        user.log_lines(uuid)
    )

    def published() -> list[tuple[dict[str, object], bool]] | None:
        found = asyncio.run(_crossings(user.stack.database_url, uuid))
        return found if found and all(sent for _, sent in found) else None

    # the points are stored, so the batch's crossings are in the outbox with them: none is to come
    [(crossed, _)] = wait_for_sync(published, message="the crossing published")
    assert (crossed["metric"], crossed["step"], crossed["value"]) == ("loss", 2, "NaN")
    assert (crossed["rule_id"], crossed["comparison"]) == (rule["id"], "is_nan")
