"""Real polyaxonfiles of the external corpus run to completion on the embedded stack.

Collected only when the corpus is there (``AXONAL_CONFORMANCE_DIR``, or
``../shared/conformance`` beside the repository).

Each file is submitted with ``axonal run -f corpus.yaml [-f patch.yaml] [-P ...] --json`` and
must end ``succeeded`` (a DAG or a matrix: every child too). A patch (``corpus_patches/``,
named after the file it patches; a file that refers to another reuses that one's) replaces
only what cannot run on this offline machine: a GitHub clone becomes a clone of a local
stand-in repository with the same name and layout (built by the ``repos`` fixture: the
scripts print their args and write outputs to ``AXONAL_RUN_OUTPUTS_FILE``), and a command
that exists only in an image becomes a tiny Python command. ``@REPOS@`` and ``@PYTHON@`` in
a patch are replaced at test time.

| corpus file | how | why |
|---|---|---|
| passing-params/args-static.yaml | as is | `echo` |
| passing-params/args-message.yaml | as is, `-P message` | `echo` |
| passing-params/args-inline-python.yaml | as is, `-P message` | init.file + host `python3` |
| passing-params/env-vars.yaml | as is, `-P message` | init.file + env + host `python3` |
| passing-params/python-tracking.yaml | patch | `polyaxon` from its image -> `axonal.tracking` |
| scheduling/experimentation/typed.yaml | patch, `-P epochs=2` | init.git (GitHub) -> local repo |
| scheduling/hooks/mulitple-hooks.yaml | patch | init.git from GitHub -> local repo |
| tracking/simulate.yaml | patch | init.git + `pip install` -> local repo, no pip |
| keras/mnist/polyaxonfile.yml | patch | init.git (polyaxon-examples) -> local repo |
| plain/mapping_job_file_early_stopping.yml | patch | `train` from `foo:latest` -> Python |
| pipelines/simple_sequential_pipeline.yml | patch | image entrypoints -> Python commands |
| polyaxon-vastai-example/infra/dag.yaml | patch | torch, MNIST download, GPU -> stand-ins |
| experimentation/operation.yaml | after typed.yaml, patch | urlRef, git |
| optimization/hyperparams_grid_with_concurrency.yaml | after typed.yaml, patch | urlRef, git |
| optimization/hyperparams_random.yaml | after typed.yaml, patch | urlRef, git |
| optimization/mapping.yaml | after typed.yaml, patch | urlRef, git |
| keras/mnist/polyaxonfile_hyperparams_mapping.yml | after polyaxonfile.yml, patch | pathRef, git |
| scheduling/dags/dag.yaml | patch (own test) | urlRef ops -> typed.yaml inlined, git |

The "after" files refer to another corpus file (``urlRef`` needs the network; a ``pathRef``
would be inlined by the CLI, but the patch must reach the referenced component's ``init``):
the referenced file is given as the first ``-f`` instead, and the reference in the second one
is then ignored (a patch never changes the reference); the patch is the referenced file's.

Left out: ``hyperparams_grid.yaml`` (the grid above without concurrency), ``hyperparams_bo``
and ``hyperopt`` (adaptive: their jobs must log the metric; ``test_optimization.py`` runs
each kind), ``hubRef`` targets
(Component Hub), cron schedules (never "complete"), distributed kinds (tfjob, pytorchjob,
dask: no local executor), services (notebook, streamlit) and the negative or fragment files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from axonal_testing.conformance import checked, required_external_corpus
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from .conftest import MODEL, RUNS, Case, done, get, logs, make_repo, patch_file, run_to_completion

pytestmark = pytest.mark.slow

CONFORMANCE = required_external_corpus()
CORPUS = CONFORMANCE / "polyaxonfiles"
PATCHES = Path(__file__).parent / "corpus_patches"
QS = "polyaxon-quick-start"

CASES = [
    Case(f"{QS}/passing-params/args-static.yaml", logs="This is a test"),
    Case(
        f"{QS}/passing-params/args-message.yaml", params={"message": "hi-axonal"}, logs="hi-axonal"
    ),
    Case(
        f"{QS}/passing-params/args-inline-python.yaml",
        params={"message": "inline-axonal"},
        logs="inline-axonal",
    ),
    Case(f"{QS}/passing-params/env-vars.yaml", params={"message": "env-axonal"}, logs="env-axonal"),
    Case(
        f"{QS}/passing-params/python-tracking.yaml",
        "python-tracking.yaml",
        {"message": "tracked"},
        logs="'tracked': True",
        outputs=("tracked",),
    ),
    Case(
        f"{QS}/scheduling/experimentation/typed.yaml",
        "typed.yaml",
        {"epochs": "2"},
        logs="--epochs=2",
        outputs=("loss", "accuracy"),
    ),
    Case(f"{QS}/scheduling/hooks/mulitple-hooks.yaml", "mulitple-hooks.yaml", logs="--epochs=1"),
    Case(f"{QS}/tracking/simulate.yaml", "simulate.yaml", logs="--epochs=20"),
    Case(
        "polyaxon-examples/in_cluster/keras/mnist/polyaxonfile.yml",
        "polyaxonfile.yaml",
        logs="--log_learning_rate=-3",
    ),
    Case(
        "cli/cli/tests/fixtures/plain/mapping_job_file_early_stopping.yml",
        "mapping_job_file_early_stopping.yaml",
        children=2,
    ),
    Case(
        "cli/cli/tests/fixtures/pipelines/simple_sequential_pipeline.yml",
        "simple_sequential_pipeline.yaml",
        children=4,
    ),
    Case("polyaxon-vastai-example/infra/dag.yaml", "vastai-dag.yaml", children=3),
    Case(
        f"{QS}/scheduling/experimentation/operation.yaml",
        "typed.yaml",
        logs="--optimizer=sgd",
        outputs=("loss", "accuracy"),
        base=f"{QS}/scheduling/experimentation/typed.yaml",
    ),
    *(
        Case(
            f"{QS}/scheduling/optimization/{name}",
            "typed.yaml",
            children=children,
            outputs=("loss", "accuracy"),
            base=f"{QS}/scheduling/experimentation/typed.yaml",
        )
        for name, children in [
            ("hyperparams_grid_with_concurrency.yaml", 10),
            ("hyperparams_random.yaml", 10),
            ("mapping.yaml", 2),
        ]
    ),
    Case(
        "polyaxon-examples/in_cluster/keras/mnist/polyaxonfile_hyperparams_mapping.yml",
        "polyaxonfile.yaml",
        children=4,
        base="polyaxon-examples/in_cluster/keras/mnist/polyaxonfile.yml",
    ),
]


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Local stand-ins of the GitHub repositories the corpus clones (same names and paths)."""
    root = tmp_path_factory.mktemp("repos")
    make_repo(
        root,
        "polyaxon-quick-start",
        {
            "scheduling/model.py": MODEL,
            "scheduling/best_models.py": MODEL,
            "tracking/simulate_dl_experiment.py": MODEL,
        },
    )
    make_repo(root, "polyaxon-examples", {"in_cluster/keras/mnist/model.py": MODEL})
    return root


@pytest.fixture(scope="module")
def http(stack: RunningStack) -> Iterator[httpx.Client]:
    with stack.http(timeout=10) as client:
        yield client


@pytest.mark.parametrize("case", CASES, ids=[Path(case.path).name for case in CASES])
def test_corpus_file_runs_to_completion(
    case: Case, stack: RunningStack, http: httpx.Client, repos: Path, tmp_path: Path
):
    run_to_completion(case, CORPUS, PATCHES, stack, http, repos, tmp_path)
    checked("polyaxonfile", case.path)


@pytest.mark.parametrize("max_loss", [None, 1.0], ids=["loss-high", "loss-low"])
def test_quick_start_dag_tunes_only_when_the_loss_is_high(
    max_loss: float | None, stack: RunningStack, http: httpx.Client, repos: Path, tmp_path: Path
):
    """experiment -> tune (random sweep, ``conditions`` on experiment's loss) -> best_model."""
    patch = patch_file(PATCHES, "quick-start-dag.yaml", repos, tmp_path)
    argv = ["run", "-f", str(CORPUS / QS / "scheduling/dags/dag.yaml"), "-f", str(patch)]
    if max_loss is not None:
        argv += ["-P", f"max_loss={max_loss}"]
    submitted = stack.cli(*argv, "--json")
    assert submitted.returncode == 0, submitted.stderr
    dag_uuid = json.loads(submitted.stdout)["uuid"]

    dag = wait_for_sync(lambda: done(http, dag_uuid), timeout=120, interval=0.2, message="dag")
    ops = {run["name"]: run for run in get(http, RUNS, pipeline=dag_uuid)["runs"]}
    assert dag["status"] == "succeeded", json.dumps([dag, ops], indent=1)
    tuned = max_loss is None  # the stand-in's loss is 0.25; max_loss defaults to 0.01
    assert {name: run["status"] for name, run in ops.items()} == {
        "experiment": "succeeded",
        "tune": "succeeded" if tuned else "skipped",
        "best_model": "succeeded",  # trigger all_done
    }
    assert ops["experiment"]["outputs"] == {"loss": 0.25, "accuracy": 0.75}
    trials = get(http, RUNS, pipeline=ops["tune"]["uuid"], limit=100)["runs"]
    assert len(trials) == (20 if tuned else 0), trials
    assert all(trial["status"] == "succeeded" for trial in trials), trials
    assert "--top=5" in logs(http, ops["best_model"]["uuid"])
    checked("polyaxonfile", f"{QS}/scheduling/dags/dag.yaml")
