"""Jobs end to end: submit, schedule, reports, queues, stop, retries, duplicates."""

from axonal_testing.waiting import wait_for

JOB = """
version: 1.1
kind: component
name: train
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""


def happy(cmd):
    return [("starting", {}), ("running", {}), ("succeeded", {"outputs": {"loss": 0.1}})]


async def test_job_runs_with_one_event_per_transition(scheduler):
    scheduler.agent.script = happy
    run_uuid = await scheduler.submit(JOB)
    run = await scheduler.wait_status(run_uuid, "succeeded")
    assert run.outputs == {"loss": 0.1}
    assert run.started_at is not None
    assert run.finished_at is not None

    async def all_events():
        events = await scheduler.events(run_uuid)
        return events if len(events) == 8 else None

    events = await wait_for(all_events, message="8 run events")
    assert [kind for kind, _ in events] == [
        "created",
        "compiled",
        "queued",
        "scheduled",
        "starting",
        "running",
        "succeeded",
        "done",
    ]
    assert events[-1][1]["outputs"] == {"loss": 0.1}
    assert [c.name for c in scheduler.agent.received] == ["train"]


async def test_the_polyaxonfile_tags_travel_with_every_run_event(scheduler):
    scheduler.agent.script = happy
    run_uuid = await scheduler.submit(
        JOB.replace("name: train", "name: train\ntags: [nightly, gpu]")
    )
    run = await scheduler.wait_status(run_uuid, "succeeded")
    assert run.tags == ["nightly", "gpu"]

    async def done():
        events = await scheduler.events(run_uuid)
        return events if events and events[-1][0] == "done" else None

    events = await wait_for(done, message="run.done")
    assert {tuple(data["tags"]) for _, data in events} == {("nightly", "gpu")}


async def test_failed_with_exit_code(scheduler):
    scheduler.agent.script = lambda cmd: [("failed", {"exit_code": 3})]
    run_uuid = await scheduler.submit(JOB)
    run = await scheduler.wait_status(run_uuid, "failed")
    assert run.message == "exit code 3"


async def test_failed_keeps_the_exit_code_before_the_last_lines(scheduler):
    scheduler.agent.script = lambda cmd: [
        ("failed", {"exit_code": 3, "reason": "ExitCode", "message": "line-1\nline-2"})
    ]
    run_uuid = await scheduler.submit(JOB)
    run = await scheduler.wait_status(run_uuid, "failed")
    assert (run.reason, run.message) == ("ExitCode", "exit code 3\nline-1\nline-2")


async def test_compile_error_fails_the_run(scheduler):
    run_uuid = await scheduler.submit(
        "version: 1.1\nkind: component\nrun: {kind: job}\ninputs: [{name: x, type: int}]"
    )
    run = await scheduler.wait_status(run_uuid, "failed")
    assert run.reason == "CompilationError"
    assert run.message


async def test_queue_concurrency_one_runs_jobs_one_after_the_other(scheduler):
    first = await scheduler.submit(JOB, queue=scheduler.serial)
    second = await scheduler.submit(JOB, queue=scheduler.serial)
    await scheduler.wait_status(first, "scheduled")
    await wait_for(lambda: len(scheduler.agent.received) == 1, message="first executed")
    await scheduler.wait_status(second, "queued")
    await scheduler.agent.report(first, 1, "succeeded")
    await scheduler.wait_status(second, "scheduled")
    await wait_for(lambda: len(scheduler.agent.received) == 2, message="second executed")
    assert [c.run_uuid for c in scheduler.agent.received] == [first, second]
    await scheduler.agent.report(second, 1, "succeeded")  # frees the queue for other tests
    await scheduler.wait_status(second, "succeeded")


async def test_stop_before_and_after_start(scheduler):
    waiting = await scheduler.submit(JOB, queue=scheduler.serial)
    queued = await scheduler.submit(JOB, queue=scheduler.serial)
    await scheduler.wait_status(waiting, "scheduled")
    await scheduler.wait_status(queued, "queued")
    await scheduler.act("stop", queued)
    await scheduler.wait_status(queued, "stopped")
    await scheduler.agent.report(waiting, 1, "running")
    await scheduler.wait_status(waiting, "running")
    await scheduler.act("stop", waiting)
    await scheduler.wait_status(waiting, "stopping")
    await scheduler.agent.report(waiting, 1, "running")  # late: ignored
    await scheduler.agent.report(waiting, 1, "stopped")
    await scheduler.wait_status(waiting, "stopped")
    await scheduler.act("stop", waiting)  # idempotent


async def test_retries_then_success(scheduler):
    text = JOB + "termination: {maxRetries: 2, timeout: 30, ttl: 5}\n"

    def flaky(cmd):
        return [("failed", {"reason": "Error"})] if cmd.attempt < 3 else [("succeeded", {})]

    scheduler.agent.script = flaky
    run_uuid = await scheduler.submit(text)
    run = await scheduler.wait_status(run_uuid, "succeeded")
    assert run.attempt == 3
    assert [c.attempt for c in scheduler.agent.received] == [1, 2, 3]
    assert scheduler.agent.received[0].timeout_seconds == 30
    assert scheduler.agent.received[0].ttl_seconds == 5

    async def published() -> list[str] | None:  # the outbox relay publishes after the commit
        kinds = [kind for kind, _ in await scheduler.events(run_uuid)]
        return kinds if "done" in kinds else None

    kinds = await wait_for(published, message="the done event is published")
    assert kinds.count("retrying") == 2
    assert kinds.count("done") == 1


async def test_duplicate_submit_is_a_no_op(scheduler):
    scheduler.agent.script = happy
    run_uuid = await scheduler.submit(JOB)
    await scheduler.submit(JOB, run_uuid=run_uuid)
    await scheduler.wait_status(run_uuid, "succeeded")
    created = [k for k, _ in await scheduler.events(run_uuid) if k == "created"]
    assert created == ["created"]
    assert len(scheduler.agent.received) == 1


async def test_approval_restart_and_resume(scheduler):
    run_uuid = await scheduler.submit(JOB + "isApproved: false\n")
    await scheduler.wait_status(run_uuid, "created")
    await scheduler.act("approve", run_uuid)
    await scheduler.wait_status(run_uuid, "scheduled")
    await scheduler.agent.report(run_uuid, 1, "failed")
    await scheduler.wait_status(run_uuid, "failed")
    await scheduler.act("resume", run_uuid)
    resumed = await scheduler.wait_status(run_uuid, "scheduled")
    assert resumed.attempt == 2
    await scheduler.agent.report(run_uuid, 2, "succeeded")
    await scheduler.wait_status(run_uuid, "succeeded")
    copy = "c" * 32
    await scheduler.act("restart", run_uuid, new_run_uuid=copy)
    restarted = await scheduler.wait_status(copy, "scheduled")
    assert restarted.original_uuid == run_uuid


async def test_params_reach_the_agent_with_to_env(scheduler):
    text = """
version: 1.1
kind: operation
params:
  lr: {value: 0.5, toEnv: LEARNING_RATE}
component:
  name: fit
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""
    run_uuid = await scheduler.submit(text, params={"lr": 0.25})
    await scheduler.wait_status(run_uuid, "scheduled")
    await wait_for(lambda: scheduler.agent.received, message="executed")
    cmd = scheduler.agent.received[0]
    assert cmd.inputs == {"lr": 0.25}
    assert cmd.to_env == {"LEARNING_RATE": "0.25"}
    assert cmd.run["container"]["command"] == ["echo", 0.25]
    await scheduler.agent.report(run_uuid, 1, "succeeded")
