"""DAGs and matrices driven by run.done: triggers, refs, conditions, concurrency, early stop."""

from axonal_testing.waiting import wait_for

RUN = "{kind: job, container: {image: python, command: [echo, step-%s]}}"
OUT = "outputs: [{name: loss, type: float, isOptional: true}]"


def op(name, *lines):
    """One DAG op of the pipelines below, with extra YAML lines (dependencies, trigger...)."""
    body = "".join(f"\n        {line}" for line in lines)
    return f"""
      - name: {name}{body}
        component:
          {OUT}
          run: {RUN % name}"""


DAG = (
    """
version: 1.1
kind: operation
name: pipe
component:
  run:
    kind: dag
    operations:"""
    + op("a")
    + """
      - name: b
        params:
          x: {ref: ops.a, value: outputs.loss}
        component:
          inputs: [{name: x, type: float}]
          run: {kind: job, container: {image: python, command: [echo, "b={{ x }}"]}}"""
    + op("c", "dependencies: [a]")
    + op("d", "dependencies: [b, c]")
)


async def test_dag_passes_outputs_through_ref(scheduler):
    def script(cmd):
        outputs = {"loss": 0.25} if cmd.name == "a" else {}
        return [("running", {}), ("succeeded", {"outputs": outputs})]

    scheduler.agent.script = script
    pipe = await scheduler.submit(DAG)
    run = await scheduler.wait_status(pipe, "succeeded")
    assert run.kind == "dag"
    assert run.children == 4
    names = [c.name for c in scheduler.agent.received]
    assert names[0] == "a"
    assert names[-1] == "d"
    assert set(names[1:3]) == {"b", "c"}
    b = next(c for c in scheduler.agent.received if c.name == "b")
    assert b.run["container"]["command"] == ["echo", "b=0.25"]
    assert b.inputs["x"] == 0.25
    kids = await scheduler.children(pipe)
    assert {k.status for k in kids.values()} == {"succeeded"}
    # the graph as a reader draws it: the DAG's edges, each child's op
    assert run.upstream == {"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"]}
    assert {k.op_name: k.upstream for k in kids.values()} == dict.fromkeys("abcd")

    async def published():  # the outbox relay publishes after the commit
        kinds = [k for k, _ in await scheduler.events(pipe)]
        return kinds if "done" in kinds else None

    kinds = await wait_for(published, message="the DAG's done event is published")
    assert kinds == ["created", "compiled", "running", "succeeded", "done"]


FAILING = (
    """
version: 1.1
kind: operation
name: fragile
component:
  run:
    kind: dag
    operations:"""
    + op("a")
    + op("after", "dependencies: [a]")
    + op("cleanup", "dependencies: [a]", "trigger: one_failed")
    + op("never", "dependencies: [after]", "trigger: all_done", "conditions: '{{ false }}'")
    + op("skipper", "dependencies: [never]", "skipOnUpstreamSkip: true")
)


async def test_failure_dag(scheduler):
    def script(cmd):
        return [("failed", {"exit_code": 1})] if cmd.name == "a" else [("succeeded", {})]

    scheduler.agent.script = script
    pipe = await scheduler.submit(FAILING)
    run = await scheduler.wait_status(pipe, "failed")
    kids = await scheduler.children(pipe)
    statuses = {name: kid.status for name, kid in kids.items()}
    assert statuses == {
        "a": "failed",
        "after": "upstream_failed",
        "cleanup": "succeeded",
        "never": "skipped",
        "skipper": "skipped",
    }
    assert run.finished_at is not None
    assert sorted(c.name for c in scheduler.agent.received) == ["a", "cleanup"]


MATRIX = """
version: 1.1
kind: operation
name: sweep
matrix:
  kind: grid
  concurrency: 2
  params:
    lr: {kind: choice, value: [0.1, 0.2, 0.3, 0.4]}
component:
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: [echo, "lr={{ lr }}"]}}
"""


async def test_grid_matrix_with_concurrency(scheduler):
    sweep = await scheduler.submit(MATRIX)
    await wait_for(lambda: len(scheduler.agent.received) == 2, message="two children started")
    kids = await scheduler.children(sweep)
    assert sorted(k.status for k in kids.values()) == [
        "created",
        "created",
        "scheduled",
        "scheduled",
    ]
    finished: set[str] = set()
    for started in (2, 3, 4, 4):
        await wait_for(lambda n=started: len(scheduler.agent.received) >= n)
        next_one = next(c for c in scheduler.agent.received if c.run_uuid not in finished)
        finished.add(next_one.run_uuid)
        await scheduler.agent.report(next_one.run_uuid, 1, "succeeded")
        await scheduler.wait_status(next_one.run_uuid, "succeeded")
        kids = await scheduler.children(sweep)
        assert sum(k.status == "scheduled" for k in kids.values()) <= 2
    run = await scheduler.wait_status(sweep, "succeeded")
    assert run.kind == "matrix"
    assert run.children == 4
    commands = sorted(c.run["container"]["command"][1] for c in scheduler.agent.received)
    assert commands == ["lr=0.1", "lr=0.2", "lr=0.3", "lr=0.4"]


async def test_metric_early_stopping_stops_the_rest(scheduler):
    text = MATRIX.replace(
        "  concurrency: 2\n",
        "  concurrency: 1\n  earlyStopping:\n"
        "    - {kind: metric_early_stopping, metric: loss, value: 0.1, optimization: minimize}\n",
    )
    scheduler.agent.script = lambda cmd: [("succeeded", {"outputs": {"loss": 0.05}})]
    sweep = await scheduler.submit(text)
    run = await scheduler.wait_status(sweep, "succeeded")
    assert run.reason == "MetricEarlyStopping"
    assert run.objective is not None
    assert (run.objective.metric, run.objective.optimization) == ("loss", "minimize")
    kids = await scheduler.children(sweep)
    assert sorted(k.status for k in kids.values()) == ["stopped", "stopped", "stopped", "succeeded"]


async def test_stopping_a_dag_stops_its_children(scheduler):
    pipe = await scheduler.submit(DAG)
    await wait_for(lambda: len(scheduler.agent.received) == 1, message="a started")
    await scheduler.act("stop", pipe)
    await scheduler.wait_status(pipe, "stopping")
    a = scheduler.agent.received[0]
    await scheduler.wait_status(a.run_uuid, "stopping")
    await scheduler.agent.report(a.run_uuid, 1, "stopped")
    await scheduler.wait_status(pipe, "stopped")
    kids = await scheduler.children(pipe)
    assert {k.status for k in kids.values()} == {"stopped"}


async def test_failure_early_stopping_fails_the_sweep(scheduler):
    text = MATRIX.replace(
        "  concurrency: 2\n",
        "  concurrency: 1\n  earlyStopping:\n    - {kind: failure_early_stopping, percent: 25}\n",
    )
    scheduler.agent.script = lambda cmd: [("failed", {"exit_code": 2})]
    sweep = await scheduler.submit(text)
    run = await scheduler.wait_status(sweep, "failed")
    assert run.reason == "FailureEarlyStopping"
    kids = await scheduler.children(sweep)
    assert sorted(k.status for k in kids.values()) == ["failed", "stopped", "stopped", "stopped"]
    assert len(scheduler.agent.received) == 1


async def test_dag_concurrency_bounds_running_ops(scheduler):
    text = (
        """
version: 1.1
kind: operation
name: wide
component:
  run:
    kind: dag
    concurrency: 1
    operations:"""
        + op("x")
        + op("y")
        + op("z")
    )
    pipe = await scheduler.submit(text)
    for count in (1, 2, 3):
        await wait_for(lambda n=count: len(scheduler.agent.received) == n, message=f"{count} ops")
        kids = await scheduler.children(pipe)
        assert sum(k.status == "scheduled" for k in kids.values()) == 1
        await scheduler.agent.report(scheduler.agent.received[-1].run_uuid, 1, "succeeded")
    await scheduler.wait_status(pipe, "succeeded")


async def test_mapping_matrix(scheduler):
    text = """
version: 1.1
kind: operation
name: mapped
matrix:
  kind: mapping
  values: [{lr: 0.5}, {lr: 0.7}]
component:
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""
    scheduler.agent.script = lambda cmd: [("succeeded", {})]
    mapped = await scheduler.submit(text)
    await scheduler.wait_status(mapped, "succeeded")
    assert sorted(c.inputs["lr"] for c in scheduler.agent.received) == [0.5, 0.7]


async def test_dag_of_cache_hits_completes_without_running(scheduler):
    text = (
        DAG.replace("name: pipe", "name: cached-pipe")
        .replace("        component:\n", "        cache: {ttl: 3600}\n        component:\n")
        .replace("[echo, step-", "[echo, cached-")
    )  # a cache key of its own

    def script(cmd):
        return [("succeeded", {"outputs": {"loss": 0.5} if cmd.name == "a" else {}})]

    scheduler.agent.script = script
    first = await scheduler.submit(text)
    await scheduler.wait_status(first, "succeeded")
    assert len(scheduler.agent.received) == 4
    second = await scheduler.submit(text)
    await scheduler.wait_status(second, "succeeded")
    assert len(scheduler.agent.received) == 4
    kids = await scheduler.children(second)
    assert all(k.cache_hit_of for k in kids.values())
    assert kids["a"].outputs == {"loss": 0.5}


async def test_restart_a_dag_and_approve_an_op(scheduler):
    text = DAG.replace("      - name: c\n", "      - name: c\n        isApproved: false\n")
    scheduler.agent.script = lambda cmd: [("succeeded", {"outputs": {"loss": 1.0}})]
    pipe = await scheduler.submit(text)
    await wait_for(lambda: len(scheduler.agent.received) == 2, message="a and b ran")
    kids = await scheduler.children(pipe)
    assert kids["c"].status == "created"
    assert (await scheduler.get(pipe)).status == "running"
    await scheduler.act("approve", kids["c"].uuid)
    await scheduler.wait_status(pipe, "succeeded")
    copy = "a" * 32
    await scheduler.act("restart", pipe, new_run_uuid=copy)
    await scheduler.act("restart", pipe, new_run_uuid=copy)  # idempotent
    await wait_for(lambda: len(scheduler.agent.received) == 6, message="the copy's a and b ran")
    restarted = await scheduler.get(copy)
    assert restarted.original_uuid == pipe
    assert restarted.children == 4
    await scheduler.act("stop", copy)
    await scheduler.wait_status(copy, "stopped")


async def test_dag_admits_the_higher_queue_priority_first(scheduler):
    """DAG concurrency 1: once `hold` frees the slot, c (queue priority 10) runs before a, b."""
    text = (
        """
version: 1.1
kind: operation
name: ranked
component:
  run:
    kind: dag
    concurrency: 1
    operations:"""
        + op("hold")
        + op("a", "dependencies: [hold]")
        + op("b", "dependencies: [hold]")
        + op("c", "dependencies: [hold]", f"queue: {scheduler.urgent}")
    )
    scheduler.agent.script = lambda cmd: [("succeeded", {})]
    pipe = await scheduler.submit(text)
    await scheduler.wait_status(pipe, "succeeded")
    assert [c.name for c in scheduler.agent.received] == ["hold", "c", "a", "b"]
    kids = await scheduler.children(pipe)
    assert kids["c"].queue == scheduler.urgent


async def test_resume_a_dag_reruns_only_what_did_not_succeed(scheduler):
    text = (
        """
version: 1.1
kind: operation
name: resumable
component:
  run:
    kind: dag
    operations:"""
        + op("a")
        + op("b", "dependencies: [a]")
    )
    failed_once: set[str] = set()

    def script(cmd):
        if cmd.name == "b" and not failed_once:
            failed_once.add(cmd.run_uuid)
            return [("failed", {"exit_code": 1})]
        return [("succeeded", {})]

    scheduler.agent.script = script
    pipe = await scheduler.submit(text)
    await scheduler.wait_status(pipe, "failed")
    await scheduler.act("resume", pipe)
    run = await scheduler.wait_status(pipe, "succeeded")
    assert run.attempt == 2
    names = [c.name for c in scheduler.agent.received]
    assert names == ["a", "b", "b"]
    kids = await scheduler.children(pipe)
    assert {k.name: (k.status, k.attempt) for k in kids.values()} == {
        "a": ("succeeded", 1),
        "b": ("succeeded", 2),
    }


async def test_resume_a_matrix_reruns_only_its_failed_trials(scheduler):
    def script(cmd):
        failing = cmd.inputs["lr"] == 0.3 and cmd.attempt == 1
        return [("failed", {})] if failing else [("succeeded", {})]

    scheduler.agent.script = script
    sweep = await scheduler.submit(MATRIX)
    await scheduler.wait_status(sweep, "failed")
    await scheduler.act("resume", sweep)
    await scheduler.wait_status(sweep, "succeeded")
    rerun = [c.inputs["lr"] for c in scheduler.agent.received if c.attempt == 2]
    assert rerun == [0.3]
    assert len(scheduler.agent.received) == 5
