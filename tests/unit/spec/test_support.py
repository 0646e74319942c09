"""The table of support: every model field is executed or warned about; the warnings."""

from pathlib import Path
from textwrap import dedent

from axonal_spec.checking import check
from axonal_spec.parsing import load
from axonal_spec.support import SHORTCUTS, SUPPORT, Executed, Ignored
from axonal_spec.support_check import ignored_fields

from .field_paths_support import field_paths

#: Rows for fields another change adds to the schedule models.
ARRIVING = {"schedule.timezone", "schedule.catchup"}


def _row(path: str) -> str:
    head, _, rest = path.partition(".")
    if head in SHORTCUTS:
        return f"{SHORTCUTS[head]}.{rest}" if rest else SHORTCUTS[head]
    return path


def _covered(path: str) -> bool:
    row = _row(path)
    parts = row.split(".")
    ancestors = (".".join(parts[:end]) for end in range(1, len(parts)))
    return row in SUPPORT or any(isinstance(SUPPORT.get(a), Ignored) for a in ancestors)


def test_every_field_is_executed_or_warned_about():
    unclassified = sorted(path for path in field_paths() if not _covered(path))
    assert unclassified == []


def test_every_row_names_a_field():
    rows = {_row(path) for path in field_paths()}
    prefixes = {".".join(p.split(".")[:end]) for p in rows for end in range(1, p.count(".") + 1)}
    stale = sorted(set(SUPPORT) - rows - prefixes - ARRIVING)
    assert stale == []


def test_rows_name_who_executes_or_why_not():
    for path, support in SUPPORT.items():
        if isinstance(support, Executed):
            assert support.by, path
        else:
            assert support.reason, path


def test_kubernetes_and_unexecuted_fields_are_ignored_by_the_local_agent():
    for path in (
        "run.environment.nodeSelector",
        "run.environment.tolerations",
        "run.environment.affinity",
        "run.environment.serviceAccountName",
        "run.environment.imagePullSecrets",
        "run.sidecars",
        "run.init.dockerfile",
        "run.container.image",
        "run.rewritePath",
        "termination.probe.exec",
        "joins.ref",
        "build.runPatch",
    ):
        assert isinstance(SUPPORT[path], Ignored), path
    assert SUPPORT["schedule.cron"] == Executed(("scheduler",))
    assert SUPPORT["run.ports"] == Executed(("compiler", "agent"))
    assert SUPPORT["events"] == Executed(("compiler", "scheduler"))
    assert SUPPORT["build.hubRef"] == Executed(("compiler", "scheduler"))
    assert SUPPORT["termination.probe.http"] == Executed(("scheduler", "agent"))
    assert SUPPORT["run.container.command"] == Executed(("agent",))


def _warnings(text: str) -> dict[str, str]:
    return {w.location: w.message for w in ignored_fields(load(dedent(text)))}


def test_a_root_shortcut_is_named_as_written():
    found = _warnings(
        """
        kind: component
        environment: {nodeSelector: {gpu: "true"}}
        container: {image: python, command: [echo]}
        """
    )
    assert found == {
        "environment.nodeSelector": "`environment.nodeSelector` is ignored by the local agent: "
        "a Kubernetes setting; a local run is a process on the agent's host",
        "container.image": "`container.image` is ignored by the local agent: "
        "the command runs on the agent's host, not in an image",
    }


def test_nested_fields_and_free_form_container_keys_are_located():
    found = _warnings(
        """
        kind: component
        plugins: {collectLogs: false}
        params: {lr: {value: 1, connection: store}}
        run:
          kind: dag
          operations:
          - name: a
            component:
              run:
                kind: job
                container: {command: [echo], securityContext: {runAsUser: 1}}
                init: [{file: {content: x}}, {dockerfile: {image: python}}]
        """
    )
    assert set(found) == {
        "plugins.collectLogs",
        "params.lr.connection",
        "run.operations[0].component.run.container.securityContext",
        "run.operations[0].component.run.init[1].dockerfile",
    }


def test_executed_fields_give_no_warning():
    assert not _warnings(
        """
        kind: component
        inputs: [{name: lr, type: float, value: 0.1, toEnv: LR}]
        termination: {maxRetries: 1, timeout: 60}
        schedule: {kind: cron, cron: "* * * * *"}
        run:
          kind: job
          init: [{git: {url: "https://example.com/repo.git"}}]
          container:
            command: [python, -c, "print(1)"]
            env: [{name: A, value: b}]
            resources: {limits: {cpu: 1}}
        """
    )


def test_check_warns_of_the_fields_of_a_fetched_component(tmp_path: Path):
    component = tmp_path / "train.yaml"
    component.write_text(
        "kind: component\nrun: {kind: job, environment: {tolerations: []}, "
        "container: {command: [echo]}}\n"
    )
    operation = tmp_path / "op.yaml"
    operation.write_text("kind: operation\npathRef: train.yaml\n")
    result = check([operation])
    assert [w.location for w in result.warnings] == ["run.environment.tolerations"]
    assert result.warnings[0].agent == "local"


def test_an_events_trigger_the_scheduler_does_not_watch_is_warned_about():
    found = _warnings("""
        version: 1.1
        kind: operation
        component:
          run:
            kind: dag
            operations:
            - name: a
              component: {run: {kind: job, container: {command: [x]}}}
            - name: b
              events:
              - {kinds: [run_new_artifacts], ref: ops.a}
              - {kinds: [run_status_running], ref: runs.0123456789abcdef0123456789abcdef}
              - {kinds: [run_status_running], ref: ops.a}
              component: {run: {kind: job, container: {command: [x]}}}
    """)
    where = "component.run.operations[1].events"
    assert {k for k in found if k.startswith(where)} == {f"{where}[0].kinds", f"{where}[1].ref"}
