"""An agent that stops sending heartbeats: its started runs fail with AgentLost."""

from datetime import UTC, datetime

from axonal_events import AgentHeartbeat
from axonal_testing.agent_double import send

JOB = """
version: 1.1
kind: component
name: train
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""


async def beat(scheduler, agent, runs=()):
    heartbeat = AgentHeartbeat(
        agent=agent,
        queues=["default"],
        slots={"cpu": 1},
        free_slots={"cpu": 1},
        runs=list(runs),
        interval_seconds=0.2,
        at=datetime.now(UTC),
    )
    await send(scheduler.js, scheduler.subjects.event("agent.heartbeat"), heartbeat)


async def test_runs_of_a_silent_agent_fail(scheduler):
    run_uuid = await scheduler.submit(JOB)
    await scheduler.wait_status(run_uuid, "scheduled")
    await beat(scheduler, "fake")
    await scheduler.agent.report(run_uuid, 1, "running")
    await scheduler.wait_status(run_uuid, "running")
    await beat(scheduler, "fake", [run_uuid])
    run = await scheduler.wait_status(run_uuid, "failed", timeout=10)
    assert run.reason == "AgentLost"
    assert "fake" in (run.message or "")
