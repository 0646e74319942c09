"""The project's fixture polyaxonfiles run to completion on the embedded stack.

Each file is submitted with ``axonal run -f fixture.yaml [-f patch.yaml] [-P ...] --json`` and
must end ``succeeded`` (a DAG or a matrix: every child too). A patch (``fixture_patches/``)
replaces only what cannot run on this offline machine: the clone of
``https://git.axonal.invalid/axonal-examples`` becomes a clone of a local stand-in repository
with the same name and layout (built by the ``repos`` fixture: its scripts print their args
and write outputs to ``AXONAL_RUN_OUTPUTS_FILE``), and a command that exists only in an image
becomes a tiny Python command. ``@REPOS@`` and ``@PYTHON@`` in a patch are replaced at test
time.

| fixture | how | why |
|---|---|---|
| jobs/hello.yaml | as is | `echo` |
| jobs/greet.yaml | as is, `-P greeting` | `echo` |
| jobs/inline-script.yaml | as is, `-P greeting` | init.file + host `python3` |
| jobs/env-vars.yaml | as is, `-P greeting` | init.file + env + host `python3` |
| jobs/tracking.yaml | patch, `-P label` | `axonal` from the image -> the test's interpreter |
| jobs/typed.yaml | patch, `-P epochs=2` | init.git -> local repo |
| jobs/simulate.yaml | patch | init.git -> local repo |
| hooks/hooks.yaml | patch | init.git -> local repo |
| matrices/mapping-early-stopping.yaml | patch | `fit` from its image -> Python |
| dags/sequential.yaml | patch | image entrypoints -> Python commands |
| dags/params-dag.yaml | as is | `python3 -c` |
| jobs/operation.yaml | after typed.yaml, patch | urlRef, git |
| matrices/grid-truncated.yaml, random.yaml, mapping.yaml | after typed.yaml, patch | urlRef, git |
| matrices/mapping-flow.yaml | after simulate.yaml, patch | pathRef, git |
| dags/tune-dag.yaml | patch (own test) | urlRef ops -> typed.yaml inlined, git |
| matrices/grid-required.yaml | as is | `echo`; the matrix gives the required inputs |
| dags/hub-and-component.yaml | as is | `echo`; the inline component wins over the reference |
| jobs/hub-and-component.yaml | as is | `echo`; the inline component wins over the reference |

The "after" files refer to another fixture (``urlRef`` needs the network; a ``pathRef``
would be inlined by the CLI, but the patch must reach the referenced component's ``init``):
the referenced file is given as the first ``-f`` instead, and the reference in the second one
is then ignored (a patch never changes the reference); the patch is the referenced file's.

Left out: ``grid.yaml`` (the grid above without truncation), the adaptive matrices (bayes,
hyperopt, hyperband, iterative: their jobs must log the metric they optimize;
``test_optimization.py`` runs each kind), ``hubRef`` targets,
schedules (never "complete"), distributed kinds (no local executor), services, builds and the
negative or preset files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from axonal_testing.conformance import project_fixtures
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from .conftest import MODEL, RUNS, Case, done, get, logs, make_repo, patch_file, run_to_completion

pytestmark = pytest.mark.slow

FIXTURES = project_fixtures() / "polyaxonfiles"
PATCHES = Path(__file__).parent / "fixture_patches"
GIT = "git-stand-in.yaml"
TYPED = "jobs/typed.yaml"

CASES = [
    Case("jobs/hello.yaml", logs="hello from axonal"),
    Case("jobs/greet.yaml", params={"greeting": "hi-axonal"}, logs="greeting: hi-axonal"),
    Case(
        "jobs/inline-script.yaml",
        params={"greeting": "inline-axonal"},
        logs="script says inline-axonal",
    ),
    Case("jobs/env-vars.yaml", params={"greeting": "env-axonal"}, logs="env says env-axonal"),
    Case(
        "jobs/tracking.yaml",
        "tracking.yaml",
        {"label": "tracked"},
        logs="'labelled': True",
        outputs=("labelled",),
    ),
    Case(TYPED, GIT, {"epochs": "2"}, logs="--epochs=2", outputs=("loss", "accuracy")),
    Case("jobs/simulate.yaml", GIT, logs="--steps=12"),
    Case("hooks/hooks.yaml", GIT, logs="--epochs=1"),
    Case("matrices/mapping-early-stopping.yaml", "mapping-early-stopping.yaml", children=2),
    Case("dags/sequential.yaml", "sequential.yaml", children=4),
    Case("dags/params-dag.yaml", children=3),
    Case(
        "jobs/operation.yaml",
        GIT,
        logs="--optimizer=sgd",
        outputs=("loss", "accuracy"),
        base=TYPED,
    ),
    *(
        Case(f"matrices/{name}", GIT, children=children, outputs=("loss", "accuracy"), base=TYPED)
        for name, children in [("grid-truncated.yaml", 5), ("random.yaml", 6), ("mapping.yaml", 3)]
    ),
    Case("matrices/mapping-flow.yaml", GIT, children=3, base="jobs/simulate.yaml"),
    Case("matrices/grid-required.yaml", children=4),
    Case("dags/hub-and-component.yaml", children=2),
    Case("jobs/hub-and-component.yaml", logs="resolved for axonal"),
]


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local stand-in of the examples repository the fixtures clone (same name and paths)."""
    root = tmp_path_factory.mktemp("repos")
    make_repo(
        root,
        "axonal-examples",
        {
            "training/train.py": MODEL,
            "training/report.py": MODEL,
            "simulation/simulate.py": MODEL,
        },
    )
    return root


@pytest.fixture(scope="module")
def http(stack: RunningStack) -> Iterator[httpx.Client]:
    with stack.http(timeout=10) as client:
        yield client


@pytest.mark.parametrize("case", CASES, ids=[case.path for case in CASES])
def test_fixture_runs_to_completion(
    case: Case, stack: RunningStack, http: httpx.Client, repos: Path, tmp_path: Path
):
    run_to_completion(case, FIXTURES, PATCHES, stack, http, repos, tmp_path)


@pytest.mark.parametrize("max_loss", [None, 1.0], ids=["loss-high", "loss-low"])
def test_tune_dag_tunes_only_when_the_loss_is_high(
    max_loss: float | None, stack: RunningStack, http: httpx.Client, repos: Path, tmp_path: Path
):
    """train -> tune (random sweep, ``conditions`` on train's loss) -> report (all_done)."""
    patch = patch_file(PATCHES, "tune-dag.yaml", repos, tmp_path)
    argv = ["run", "-f", str(FIXTURES / "dags/tune-dag.yaml"), "-f", str(patch)]
    if max_loss is not None:
        argv += ["-P", f"max_loss={max_loss}"]
    submitted = stack.cli(*argv, "--json")
    assert submitted.returncode == 0, submitted.stderr
    dag_uuid = json.loads(submitted.stdout)["uuid"]

    dag = wait_for_sync(lambda: done(http, dag_uuid), timeout=120, interval=0.2, message="dag")
    ops = {run["name"]: run for run in get(http, RUNS, pipeline=dag_uuid)["runs"]}
    assert dag["status"] == "succeeded", json.dumps([dag, ops], indent=1)
    tuned = max_loss is None  # the stand-in's loss is 0.25; max_loss defaults to 0.05
    assert {name: run["status"] for name, run in ops.items()} == {
        "train": "succeeded",
        "tune": "succeeded" if tuned else "skipped",
        "report": "succeeded",  # trigger all_done
    }
    assert ops["train"]["outputs"] == {"loss": 0.25, "accuracy": 0.75}
    trials = get(http, RUNS, pipeline=ops["tune"]["uuid"], limit=100)["runs"]
    assert len(trials) == (12 if tuned else 0), trials
    assert all(trial["status"] == "succeeded" for trial in trials), trials
    assert "--top=3" in logs(http, ops["report"]["uuid"])
