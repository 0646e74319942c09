"""Acceptance: an online rule (sampling 1.0, on a trace name) scores each new matching trace
exactly once, even when the evaluation service is killed (SIGKILL) mid-stream and restarted."""

from __future__ import annotations

import signal
import uuid

from axonal_db import connect
from axonal_evaluation.app import build_app
from axonal_evaluation.settings import EvaluationSettings
from axonal_events import StreamKind
from axonal_testing.bus import drained
from axonal_testing.llm_double import llm_double
from axonal_testing.services import service_process
from axonal_testing.waiting import wait_for
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings

from .evaluators_setup import PROJECT_ID, judge_rule, publish_traces

BATCHES, PER_BATCH = 20, 15  # 300 matching traces, plus as many that match no rule


async def test_killed_evaluation_scores_each_trace_once(
    service_settings, running_service, nats_client, database_url, tmp_path
):
    await running_service(build_tracking(service_settings(TrackingSettings)))
    settings = service_settings(EvaluationSettings)
    subjects, js = settings.subjects, nats_client.jetstream()
    conn = await connect(database_url)
    expected = BATCHES * PER_BATCH

    async def count(sql: str) -> int:
        try:
            return int(await conn.fetchval(sql, PROJECT_ID))
        except Exception:  # the schema appears once the service has migrated
            return 0

    succeeded = (
        "SELECT count(*) FROM evaluation.eval_jobs WHERE project_id = $1 AND state = 'succeeded'"
    )
    with llm_double(latency=0.05) as double, (tmp_path / "evaluation.log").open("wb") as log:
        # the rules and connection are made by an in-process service first, then it stops
        app = build_app(settings)
        await running_service(app)
        await judge_rule(nats_client, subjects, double.base_url, delay_seconds=0.3)
        await app.stop()
        first = service_process("axonal_evaluation", settings, log)
        try:
            for index in range(BATCHES):
                matching = [(uuid.uuid4().hex, "chat", {"answer": "4"}) for _ in range(PER_BATCH)]
                others = [(uuid.uuid4().hex, "other", {"answer": "4"}) for _ in range(PER_BATCH)]
                await publish_traces(js, subjects, matching + others)
                del index
            await wait_for(lambda: count(succeeded), timeout=60, interval=0.01, message="started")
            first.send_signal(signal.SIGKILL)  # mid-stream: jobs running, acks in flight lost
            first.wait(10)
            partial = await count(succeeded)
            second = service_process("axonal_evaluation", settings, log)
            try:

                async def complete() -> bool:
                    return await count(succeeded) >= expected

                await wait_for(complete, timeout=120, message=f"{expected} jobs succeeded")
                for durable in ("evaluation-jobs", "evaluation-online"):
                    stream = StreamKind.COMMANDS if durable.endswith("jobs") else StreamKind.EVENTS
                    await wait_for(
                        lambda d=durable, s=stream: drained(js, subjects.stream_name(s), d),
                        timeout=60,
                        message=f"{durable} acknowledged everything",
                    )
            finally:
                second.terminate()
                assert second.wait(15) == 0, "a clean stop exits 0"
        finally:
            if first.poll() is None:
                first.kill()
        calls = len(double.requests)

    async def stored() -> bool:
        return await count("SELECT count(*) FROM tracking.scores WHERE project_id = $1") >= expected

    await wait_for(stored, timeout=30, message="scores stored by tracking")
    jobs = await count("SELECT count(*) FROM evaluation.eval_jobs WHERE project_id = $1")
    scores = await count("SELECT count(*) FROM tracking.scores WHERE project_id = $1")
    targets = await count(
        "SELECT count(DISTINCT trace_id) FROM tracking.scores WHERE project_id = $1"
    )
    await conn.close()
    info = await js.stream_info(
        subjects.stream_name(StreamKind.EVENTS), subjects_filter=subjects.event("score.created")
    )
    emitted = sum((info.state.subjects or {}).values())
    assert jobs == expected, "one job per matching trace, none for the others"
    assert scores == targets == expected
    assert emitted == expected, "score.created emitted once per job, the kill notwithstanding"
    assert 0 < partial < expected, "the kill should land mid-stream; raise BATCHES if fast"
    assert calls >= expected
