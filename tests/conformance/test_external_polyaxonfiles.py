"""The external corpus: every real polyaxonfile parses, round-trips, and gets its README outcome.

Collected only when the corpus is there (``AXONAL_CONFORMANCE_DIR``, or
``../shared/conformance`` beside the repository). The README's table says what Polyaxon 2.18
says of each file; files missing from the table are expected to be valid. Where 2.18 is
stricter than its own docs (``limit: "5"``, ``kind: hyperopt``) Axonal accepts the file.
"""

from pathlib import Path

import pytest

from axonal_spec import SpecError
from axonal_spec.checking import check
from axonal_spec.compiler import CompileOptions
from axonal_spec.composition import is_preset
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.models import Dag, Join
from axonal_spec.parsing import load
from axonal_spec.resolve import Resolvers
from axonal_testing.conformance import checked, readme_outcomes, required_external_corpus

CONFORMANCE = required_external_corpus()
CORPUS = CONFORMANCE / "polyaxonfiles"
FILES = sorted(
    p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json"}
)
QUICK_START = "https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/"
OPTIONS = CompileOptions(
    resolvers=Resolvers(urls=MappedUrlResolver({QUICK_START: CORPUS / "polyaxon-quick-start"}))
)
RUN_KINDS = {"job", "service", "dag", "tfjob", "pytorchjob", "mpijob", "raycluster", "daskcluster"}

#: Values for the required inputs of the files marked "valid (needs -P)".
PARAMS = {
    "polyaxon-quick-start/passing-params/args-message.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/args-inline-python.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/env-vars.yaml": {"message": "hello"},
    "polyaxon-quick-start/passing-params/python-tracking.yaml": {"message": "hello"},
    "polyaxon-quick-start/scheduling/experimentation/typed.yaml": {"epochs": 3},
}
EXPECTED = readme_outcomes(CONFORMANCE / "README.md")
GRID_WITH_CONCURRENCY = "hyperparams_grid_with_concurrency.yaml"


def _id(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def _file(relative: str) -> Path:
    path = CORPUS / relative
    assert path.is_file(), f"missing corpus file {relative}"
    return path


def test_the_corpus_is_there():
    assert len(FILES) >= 40, f"expected the 40+ corpus files under {CORPUS}, found {len(FILES)}"


def test_the_readme_table_covers_the_corpus():
    assert len(EXPECTED) >= 40
    assert set(EXPECTED) <= {_id(p) for p in FILES}, "the README names files that are missing"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_file_parses_round_trips_and_matches_the_readme(path: Path):
    parsed = load(path)
    document = parsed.to_dict()
    assert load(document) == parsed
    assert load(document).to_dict() == document

    name = _id(path)
    verdict = EXPECTED.get(name, "valid")
    if verdict.startswith("REJECTED"):
        with pytest.raises(SpecError) as info:
            check([path], options=OPTIONS)
        assert "cycle" in verdict
        assert any("not acyclic" in p.message for p in info.value.problems)
        checked("polyaxonfile", name)
        return
    if "needs -P" in verdict:
        with pytest.raises(SpecError, match="required inputs without a value"):
            check([path], options=OPTIONS)
        assert name in PARAMS, f"add the params {name} needs to PARAMS"
    result = check([path], params=PARAMS.get(name), options=OPTIONS)
    if verdict.startswith("fragment"):
        assert result.is_preset
    else:
        compiled = result.compiled
        assert compiled is not None
        assert compiled.run_kind in RUN_KINDS
        assert len(compiled.content_hash) == 64
    checked("polyaxonfile", name)


def test_the_cycle_is_left_to_the_compiler_which_names_it():
    path = _file("cli/cli/tests/fixtures/pipelines/cyclic_pipeline.yml")
    pipeline = load(path)
    assert isinstance(pipeline.runtime, Dag)
    assert isinstance(pipeline.runtime.operations, list)
    assert [op.dependencies for op in pipeline.runtime.operations] == [["B"], ["A"], ["B"]]
    with pytest.raises(SpecError, match=r"A -> B -> A|B -> A -> B"):
        check([path], options=OPTIONS)


@pytest.mark.parametrize(
    "relative",
    [
        "polyaxon-quick-start/scheduling/helpers/termination.yaml",
        "polyaxon-quick-start/scheduling/presets/git-init.yaml",
    ],
)
def test_preset_fragments_are_presets(relative: str):
    assert is_preset(load(_file(relative)))


def test_typed_experiment_renders_its_params():
    path = _file("polyaxon-quick-start/scheduling/experimentation/typed.yaml")
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
    compiled = check([_file("polyaxon-quick-start/scheduling/dags/dag.yaml")], options=OPTIONS)
    assert compiled.compiled is not None
    assert compiled.compiled.layers == [["experiment"], ["tune"], ["best_model"]]
    ops = {op.name: op for op in compiled.compiled.operations or []}
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
    path = _file("polyaxon-quick-start/scheduling/optimization/" + GRID_WITH_CONCURRENCY)
    compiled = check([path], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert (compiled.matrix.size, compiled.matrix.concurrency) == (10, 2)


def test_hyperopt_alias_and_quoted_limit_are_accepted():
    hyperopt = _file("polyaxon-quick-start/scheduling/optimization/hyperparams_hyperopot.yaml")
    op = load(hyperopt)
    assert op.matrix is not None
    assert op.matrix.kind == "tpe"
    assert op.path_ref == "../experimentation/typed.yaml"
    compiled = check([hyperopt], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert compiled.matrix.kind == "tpe"
    assert compiled.matrix.search_space
    joins = _file("polyaxon-quick-start/scheduling/joins/performance_based_tensorboard.yaml")
    op = load(joins)
    assert isinstance(op.joins, list)
    assert isinstance(op.joins[0], Join)
    assert op.joins[0].limit == 5
    compiled = check([joins], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.joins[0]["limit"] == 5
