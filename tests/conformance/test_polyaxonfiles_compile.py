"""Every corpus polyaxonfile gets the outcome the corpus README gives it.

The README's table says what Polyaxon 2.18 says of each file; this test reads it, so files
added to the corpus (and to the table) join automatically. Files missing from the table are
expected to be valid. Where 2.18 is stricter than its own docs (``limit: "5"``, ``kind:
hyperopt``) Axonal accepts the file.
"""

import re
from pathlib import Path

import pytest

from axonal_spec import SpecError
from axonal_spec.check import check
from axonal_spec.compiler import CompileOptions
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.resolve import Resolvers

CONFORMANCE = Path(__file__).parents[2].parent / "shared" / "conformance"
CORPUS = CONFORMANCE / "polyaxonfiles"
FILES = sorted(
    p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json"}
)
QUICK_START = "https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/"
OPTIONS = CompileOptions(
    resolvers=Resolvers(urls=MappedUrlResolver({QUICK_START: CORPUS / "polyaxon-quick-start"}))
)

#: Values for the required inputs of the files marked "valid (needs -P)".
PARAMS = {
    "polyaxon-quick-start/passing-params/args-message.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/args-inline-python.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/env-vars.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/python-tracking.yaml": {"message": "hello"},
    "polyaxon-quick-start/scheduling/experimentation/typed.yaml": {"epochs": 3},
}


def _expectations() -> dict[str, str]:
    """local path -> the README's last column (Polyaxon 2.18's verdict)."""
    rows = {}
    for line in (CONFORMANCE / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and re.fullmatch(r"\d+", cells[0]):
            rows[cells[1].strip("`")] = cells[-1]
    return rows


EXPECTED = _expectations()


def _id(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def test_the_readme_table_covers_the_corpus():
    assert len(EXPECTED) >= 40
    assert set(EXPECTED) <= {_id(p) for p in FILES}, "the README names files that are missing"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_outcome_matches_the_corpus_readme(path: Path):
    name = _id(path)
    verdict = EXPECTED.get(name, "valid")
    if verdict.startswith("REJECTED"):
        with pytest.raises(SpecError) as info:
            check([path], options=OPTIONS)
        assert "cycle" in verdict
        assert any("not acyclic" in p.message for p in info.value.problems)
        return
    if "needs -P" in verdict:
        with pytest.raises(SpecError, match="required inputs without a value"):
            check([path], options=OPTIONS)
        assert name in PARAMS, f"add the params {name} needs to PARAMS"
    result = check([path], params=PARAMS.get(name), options=OPTIONS)
    if verdict.startswith("fragment"):
        assert result.is_preset
        return
    compiled = result.compiled
    assert compiled is not None
    assert compiled.run_kind in {"job", "service", "dag", "tfjob", "pytorchjob", "daskcluster"}
    assert len(compiled.content_hash) == 64


def test_the_cycle_names_its_ops():
    path = CORPUS / "cli/cli/tests/fixtures/pipelines/cyclic_pipeline.yml"
    with pytest.raises(SpecError, match=r"A -> B -> A|B -> A -> B"):
        check([path], options=OPTIONS)


def test_typed_experiment_renders_its_params():
    path = CORPUS / "polyaxon-quick-start/scheduling/experimentation/typed.yaml"
    compiled = check([path], params={"epochs": "7"}, options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.input_values()["epochs"] == 7
    assert "--epochs=7" in compiled.run["container"]["args"]
    assert "--learning_rate=0.001" in compiled.run["container"]["args"]
    assert (
        compiled.run["container"]["workingDir"]
        == "/plx-context/artifacts/polyaxon-quick-start/scheduling"
    )


def test_quick_start_dag_shape_and_refs():
    path = CORPUS / "polyaxon-quick-start/scheduling/dags/dag.yaml"
    compiled = check([path], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.layers == [["experiment"], ["tune"], ["best_model"]]
    ops = {op.name: op for op in compiled.operations or []}
    tune = ops["tune"]
    assert {d.name for d in tune.deferred} >= {"upstream_loss"}
    assert tune.context_params["max_loss"] == 0.01  # ref: dag, read now
    assert tune.matrix is not None
    assert tune.matrix.kind == "random"
    assert tune.matrix.size == 20
    assert "--top=5" in ops["best_model"].run["container"]["args"]


def test_presets_compose_with_the_preset_polyaxonfile():
    folder = CORPUS / "polyaxon-quick-start/scheduling"
    result = check(
        [folder / "presets/polyaxonfile.yaml"],
        presets=[folder / "presets/git-init.yaml", folder / "helpers/termination.yaml"],
        options=OPTIONS,
    )
    compiled = result.compiled
    assert compiled is not None
    assert any("git" in item for item in compiled.run.get("init", []))
    assert compiled.termination is not None


def test_grid_with_concurrency_is_truncated():
    path = (
        CORPUS
        / "polyaxon-quick-start/scheduling/optimization/hyperparams_grid_with_concurrency.yaml"
    )
    compiled = check([path], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert (compiled.matrix.size, compiled.matrix.concurrency) == (10, 2)


def test_hyperopt_alias_and_quoted_limit_are_accepted():
    hyperopt = CORPUS / "polyaxon-quick-start/scheduling/optimization/hyperparams_hyperopot.yaml"
    compiled = check([hyperopt], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert compiled.matrix.kind == "tpe"
    assert compiled.matrix.search_space
    joins = CORPUS / "polyaxon-quick-start/scheduling/joins/performance_based_tensorboard.yaml"
    compiled = check([joins], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.joins[0]["limit"] == 5
