"""What outlives an agent on Kubernetes: a restarted agent adopts the Job it left running
and reports its end once; what no open attempt has is swept; a watch that lost its place (the
API server away, its history compacted: 410 Gone) is resumed by listing again."""

from __future__ import annotations

import uuid

from axonal_agent.domain.kube import Cluster, Target, build_workload
from axonal_agent.domain.kube.target import workload_name
from axonal_testing.kube.defaults import PREPARE
from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.resources import by_plural
from axonal_testing.waiting import wait_for

from .kube_support import NS, compiled, launch


async def test_a_restarted_agent_adopts_its_running_job_and_reports_its_end_once(
    kube_agent, kube_double: KubeDouble, observed, execute
):
    first = await kube_agent()
    run_uuid, name = await launch(execute, "jobs/hello.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    scheduled, running, logs, done = kube_double.scenarios.succeeded(
        NS, name, ("before the restart",), message='{"epochs": 3}'
    )
    for step in (scheduled, running, logs):
        step.run()
    await wait_for(lambda: "before the restart" in observed.lines(run_uuid), message="log")
    await first.stop()  # as on SIGTERM: the Job is left running for the next life
    pod = kube_double.job_pod(NS, name)
    assert kube_double.get("jobs", NS, name) is not None
    assert kube_double.get("secrets", NS, f"{name}-env") is not None
    kube_double.log(NS, pod, "while no agent watched")

    second = await kube_agent(name=first.settings.name)
    await wait_for(lambda: second.ctx.agent.attempts_of(run_uuid), message="adopted")
    await wait_for(lambda: "while no agent watched" in observed.lines(run_uuid), message="log")
    kube_double.log(NS, pod, "after the restart")
    done.run()
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]
    assert (final.exit_code, final.outputs) == (0, {"epochs": 3})
    lines = [line for line in observed.lines(run_uuid) if not line.startswith("kubernetes:")]
    assert lines == ["before the restart", "while no agent watched", "after the restart"]
    assert final.log_lines == len(observed.lines(run_uuid))
    seqs = [r.seq for b in observed.batches if b.run_uuid == run_uuid for r in b.records]
    assert seqs == list(range(1, len(seqs) + 1))  # numbered on from where the first life ended
    assert kube_double.get("secrets", NS, f"{name}-env") is None
    assert not second.ctx.agent.attempts


async def test_what_no_open_attempt_has_is_swept_at_start(kube_agent, kube_double: KubeDouble):
    agent = f"agent-{uuid.uuid4().hex[:8]}"
    mine, theirs = uuid.uuid4().hex, uuid.uuid4().hex
    run = compiled("jobs/hello.yaml", mine)["run"]
    for run_uuid, owner in ((mine, agent), (theirs, "another-agent")):
        target = Target(Cluster(NS), run_uuid, 1, owner, "acme/vision", secret="left-env")
        for obj in build_workload(run, target).objects:
            res = by_plural("jobs")
            kube_double.store.create(res, NS, obj, lambda o, r=res: PREPARE["jobs"](r, o))
    left = workload_name(mine, 1)

    await kube_agent(name=agent)
    await wait_for(lambda: kube_double.get("jobs", NS, left) is None, message="swept")

    assert kube_double.get("jobs", NS, workload_name(theirs, 1)) is not None
    assert [(d.resource, d.name, d.requested) for d in kube_double.deletions] == [
        ("jobs", left, "Background")
    ]


async def test_a_watch_that_lost_its_place_lists_again_without_losing_the_end(
    kube_agent, kube_double: KubeDouble, observed, execute
):
    agent = await kube_agent()
    run_uuid, name = await launch(execute, "jobs/hello.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    scheduled, running, logs, done = kube_double.scenarios.succeeded(
        NS, name, ("epoch 1",), message='{"loss": 0.1}'
    )
    for step in (scheduled, running, logs):
        step.run()
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    [attempt] = agent.ctx.agent.attempts_of(run_uuid)
    feeds = attempt.process.observer.feeds  # type: ignore[union-attr]
    async with kube_double.outage():  # the end comes while nothing watches...
        kube_double.log(NS, kube_double.job_pod(NS, name), "epoch 2")
        done.run()
        kube_double.compact()  # ...and the history that would tell it is gone
    final = await observed.wait_final(run_uuid)

    # the Job's watch listed again after its 410 (the pods' did too, unless the end came first)
    assert feeds[0].lists == 2
    assert feeds[1].lists in (1, 2)
    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]
    assert final.outputs == {"loss": 0.1}
    assert [line for line in observed.lines(run_uuid) if line.startswith("epoch")] == [
        "epoch 1",
        "epoch 2",
    ]
