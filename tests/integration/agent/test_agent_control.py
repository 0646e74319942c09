"""Stopping, timeouts, restarts and slots: the agent never leaves a process or over-commits."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from typing import Any

import psutil

from axonal_db import connect
from axonal_events import RunStatus, RunStatusChanged, StreamKind, new_event
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

from .control_support import publish_stopping


def job(command: str, **container: Any) -> dict[str, Any]:
    return {
        "kind": "job",
        "container": {"image": "busybox", "command": ["/bin/sh", "-c", command], **container},
    }


def processes_with(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if (proc.info["cmdline"] or [])[-1:] == [marker] and proc.name() == "sleep":
                found.append(proc)
        except psutil.Error:
            continue
    return found


def dead_pid() -> int:
    """The pid of a process that has exited."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


async def test_stop_event_stops_the_process_group(
    start_agent, observed, execute, nats_client, bus_settings
):
    await start_agent(stop_grace_seconds=1.0)
    marker = "61.4242"
    run_uuid = await execute(job(f"sleep {marker} & sleep {marker}; wait"))
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    await wait_for(lambda: len(processes_with(marker)) == 2, message="both sleeps started")
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)
    assert final.status == "stopped"
    assert observed.statuses(run_uuid) == ["running", "stopped"]
    assert processes_with(marker) == []


async def test_stop_escalates_to_sigkill_after_the_grace_period(
    start_agent, observed, execute, nats_client, bus_settings
):
    await start_agent(stop_grace_seconds=0.5)
    marker = "62.4242"
    run_uuid = await execute(job(f"trap '' TERM; sleep {marker} & wait; sleep {marker}"))
    await wait_for(lambda: processes_with(marker), message="sleep started")
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)
    assert final.status == "stopped"
    assert processes_with(marker) == []


async def test_stop_of_another_run_is_ignored(
    start_agent, observed, execute, nats_client, bus_settings, tmp_path
):
    await start_agent()
    gate = tmp_path / "gate"
    run_uuid = await execute(job(f"while [ ! -e {gate} ]; do sleep 0.05; done"))
    await wait_for(lambda: "running" in observed.statuses(run_uuid))
    await publish_stopping(nats_client, bus_settings, "0" * 32)
    gate.touch()
    assert (await observed.wait_final(run_uuid)).status == "succeeded"


async def test_timeout_fails_the_run(start_agent, observed, execute):
    await start_agent(stop_grace_seconds=0.5)
    marker = "63.4242"
    run_uuid = await execute(job(f"echo started; sleep {marker}"), timeout_seconds=0.5)
    final = await observed.wait_final(run_uuid)
    assert (final.status, final.reason) == ("failed", "Timeout")
    assert processes_with(marker) == []


async def test_restart_reports_a_vanished_process_as_failed(start_agent, observed, database_url):
    agent = await start_agent()
    await agent.stop()
    gone = dead_pid()
    conn = await connect(database_url)
    try:
        await conn.execute(
            "INSERT INTO agent.executions (run_uuid, attempt, agent, queue, pid, folder, status, "
            "started_at) VALUES ($1, 1, $2, 'default', $3, '/nowhere', 'running', now())",
            "f" * 32,
            agent.settings.name,
            gone,
        )
    finally:
        await conn.close()
    await start_agent(name=agent.settings.name)
    final = await observed.wait_final("f" * 32)
    assert (final.status, final.reason) == ("failed", "AgentRestarted")
    assert final.message == "the agent restarted and the process was gone"


async def test_runs_needing_all_the_cpu_run_one_after_the_other(
    start_agent, observed, execute, tmp_path, nats_client, bus_settings
):
    await start_agent(cpu=1)
    gate = tmp_path / "gate"
    needs_all = {"requests": {"cpu": "1", "memory": "10Mi"}}
    first = await execute(job(f"while [ ! -e {gate} ]; do sleep 0.05; done", resources=needs_all))
    second = await execute(job("echo second", resources=needs_all))
    await wait_for(lambda: "running" in observed.statuses(first), message="first running")
    # while the first holds the cpu, the second is offered again and again but not taken
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)

    async def offered_again() -> bool:
        info = await js.consumer_info(stream, "agent-default")
        return (info.delivered.consumer_seq or 0) >= 5  # both taken once, then re-offers

    await wait_for(offered_again, message="the second run offered again")
    assert observed.statuses(second) == []
    gate.touch()
    await observed.wait_final(first)
    assert (await observed.wait_final(second)).status == "succeeded"
    order = [(r.run_uuid, r.status.value) for r in observed.reports]
    assert order.index((first, "succeeded")) < order.index((second, "running"))


async def test_a_run_stopped_while_it_waits_for_slots_never_starts(
    start_agent, observed, execute, tmp_path, nats_client, bus_settings
):
    await start_agent(cpu=1)
    gate = tmp_path / "gate"
    needs_all = {"requests": {"cpu": "1"}}
    first = await execute(job(f"while [ ! -e {gate} ]; do sleep 0.05; done", resources=needs_all))
    second = await execute(job("echo should-not-run", resources=needs_all))
    await wait_for(lambda: "running" in observed.statuses(first), message="first running")
    await publish_stopping(nats_client, bus_settings, second)
    gate.touch()
    final = await observed.wait_final(second)
    assert (final.status, final.reason) == ("stopped", "Stopped")
    assert observed.statuses(second) == ["stopped"]
    assert "should-not-run" not in observed.lines(second)


async def test_unreadable_resources_fail_the_run(start_agent, observed, execute):
    await start_agent()
    run_uuid = await execute(job("true", resources={"requests": {"memory": "lots"}}))
    final = await observed.wait_final(run_uuid)
    assert (final.status, final.reason) == ("failed", "InvalidSpec")
    assert "not a memory quantity" in (final.message or "")


async def test_the_stop_observer_never_answers_a_jetstream_publisher(
    start_agent, observed, execute, nats_client, bus_settings
):
    """A reply from the agent would race the stream's PubAck on the publisher's inbox."""
    await start_agent()
    replies: list[bytes] = []
    inbox = nats_client.new_inbox()

    async def on_reply(msg: Any) -> None:
        replies.append(msg.data)

    sub = await nats_client.subscribe(inbox, cb=on_reply)
    event = new_event(
        RunStatusChanged(
            run_uuid="e" * 32,
            project="acme/vision",
            status=RunStatus.STOPPING,
            occurred_at=datetime.now(UTC),
        ),
        source="/tests/scheduler",
    )
    subject = bus_settings.subjects.event("run.stopping")
    for _ in range(5):
        await nats_client.publish(subject, event.to_json(), reply=inbox)
    # a real stop afterwards: once it is handled, the five before it were handled too
    run_uuid = await execute(job("sleep 30"))
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    await publish_stopping(nats_client, bus_settings, run_uuid)
    await observed.wait_final(run_uuid)
    await wait_for(lambda: len(replies) >= 5, message="the stream's acks")
    await sub.unsubscribe()
    assert all(reply for reply in replies), "the agent answered with an empty reply"


async def test_an_undecodable_command_is_dead_lettered_and_the_next_runs(
    start_agent, observed, execute, nats_client, bus_settings
):
    await start_agent()
    js = nats_client.jetstream()
    subjects = bus_settings.subjects
    await js.publish(subjects.agent_queue("default"), b"{oops", headers={"Nats-Msg-Id": "bad-1"})
    run_uuid = await execute(job("echo after"))
    assert (await observed.wait_final(run_uuid)).status == "succeeded"
    dead = await wait_for(
        lambda: read_stream(js, subjects.stream_name(StreamKind.DLQ)), message="dead letter"
    )
    assert [(d[0], d[1]) for d in dead] == [(subjects.dlq("agent-default"), b"{oops")]
