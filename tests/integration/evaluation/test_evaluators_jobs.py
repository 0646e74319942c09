"""A job's states in the database: pending -> running -> succeeded or failed, never back; a
(rule, target) pair gets one job however often it is planned; a malformed job command is
dead-lettered."""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_db import connect
from axonal_evaluation.app import build_app
from axonal_evaluation.evaluators import runner, store
from axonal_evaluation.settings import EvaluationSettings
from axonal_events import StreamKind
from axonal_testing.bus import read_stream
from axonal_testing.llm_double import llm_double
from axonal_testing.waiting import wait_for

from .evaluators_setup import PROJECT_ID, judge_rule


async def test_job_states_move_forward_only(evaluation, nats_client, database_url):
    with llm_double() as double:
        rule = await judge_rule(nats_client, evaluation.subjects, double.base_url)
    conn = await connect(database_url, schema="evaluation")
    now = datetime.now(UTC)
    job = store.NewJob("job-1", PROJECT_ID, rule.id, "trace-1", "trace-1", None, now)
    assert await store.insert_jobs(conn, [job]) == ["job-1"]
    again = job._replace(id="job-2")  # the same rule and target, planned again
    assert await store.insert_jobs(conn, [job, again]) == []
    pending = await store.job(conn, PROJECT_ID, "job-1")
    assert (pending.state, pending.attempts) == ("pending", 0)
    running = await store.start_job(conn, "job-1")
    assert (running.state, running.attempts) == ("running", 1)
    rerun = await store.start_job(conn, "job-1")  # a redelivery after a crash runs it again
    assert (rerun.state, rerun.attempts) == ("running", 2)
    answer = {"verdict": "good"}
    failed = await store.finish_job(conn, "job-1", state="failed", reason="bad", answer=answer)
    assert failed
    assert not await store.finish_job(conn, "job-1", state="succeeded", score_value=1.0)
    assert await store.start_job(conn, "job-1") is None, "a finished job never runs again"
    done = await store.job(conn, PROJECT_ID, "job-1")
    assert (done.state, done.reason, done.answer, done.score_value) == (
        "failed", "bad", answer, None
    )  # fmt: skip
    assert await store.job(conn, "another-project", "job-1") is None
    await conn.close()


async def test_a_malformed_job_command_is_dead_lettered(evaluation, nats_client):
    js, subjects = nats_client.jetstream(), evaluation.subjects
    subject = subjects.command("evaluation", "run_job")
    await js.publish(subject, b"{oops", headers={"Nats-Msg-Id": "bad-job"})
    dead = await wait_for(
        lambda: read_stream(js, subjects.stream_name(StreamKind.DLQ)), message="dead letter"
    )
    assert [d[0] for d in dead] == [subjects.dlq("evaluation-jobs")]
    assert dead[0][1] == b"{oops"


async def test_a_job_whose_last_delivery_fails_says_why(
    service_settings, running_service, nats_client, database_url
):
    settings = service_settings(EvaluationSettings)
    ctx = await running_service(build_app(settings))
    with llm_double() as double:
        rule = await judge_rule(nats_client, settings.subjects, double.base_url)
    conn = await connect(database_url, schema="evaluation")
    new = store.NewJob("job-9", PROJECT_ID, rule.id, "t9", "t9", None, datetime.now(UTC))
    await store.insert_jobs(conn, [new])
    running = await store.start_job(conn, "job-9")
    await runner.give_up(ctx, running, "RuntimeError: boom (after 8 deliveries)")
    failed = await store.job(conn, PROJECT_ID, "job-9")
    await conn.close()
    assert (failed.state, failed.reason) == ("failed", "RuntimeError: boom (after 8 deliveries)")
