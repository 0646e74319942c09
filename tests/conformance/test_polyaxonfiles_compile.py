"""Every fixture polyaxonfile gets the outcome the fixtures README gives it.

The README's table (``tests/fixtures/README.md``) says what ``axonal check`` must answer for
each file; this test reads it, so a fixture added to the folder and the table joins
automatically. Files missing from the table are expected to be valid. Where Polyaxon 2.18 is
stricter than its own docs (``limit: "3"``, ``kind: hyperopt``) Axonal accepts the file.
"""

from pathlib import Path

import pytest

from axonal_spec import SpecError
from axonal_spec.checking import check
from axonal_spec.compiler import CompileOptions
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.resolve import Resolvers
from axonal_testing.conformance import project_fixtures, readme_outcomes

FIXTURES = project_fixtures()
CORPUS = FIXTURES / "polyaxonfiles"
FILES = sorted(
    p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json"}
)
FIXTURE_URL = "https://hub.axonal.invalid/fixtures/"
OPTIONS = CompileOptions(resolvers=Resolvers(urls=MappedUrlResolver({FIXTURE_URL: CORPUS})))
RUN_KINDS = {"job", "service", "dag", "tfjob", "pytorchjob", "mpijob", "raycluster", "daskcluster"}

#: Values for the required inputs of the files marked "valid (needs -P)".
PARAMS = {
    "polyaxonfiles/jobs/greet.yaml": {"greeting": "hello"},
    "polyaxonfiles/jobs/inline-script.yaml": {"greeting": "hello"},
    "polyaxonfiles/jobs/env-vars.yaml": {"greeting": "hello"},
    "polyaxonfiles/jobs/tracking.yaml": {"label": "nightly"},
    "polyaxonfiles/jobs/typed.yaml": {"epochs": 3},
}
EXPECTED = readme_outcomes(FIXTURES / "README.md")


def _id(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


def test_the_readme_table_covers_the_fixtures():
    assert len(EXPECTED) >= 44
    assert set(EXPECTED) == {_id(p) for p in FILES}, "the README and the folder differ"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_outcome_matches_the_fixtures_readme(path: Path):
    name = _id(path)
    verdict = EXPECTED.get(name, "valid")
    if verdict == "REJECTED: cycle":
        with pytest.raises(SpecError) as info:
            check([path], options=OPTIONS)
        assert any("not acyclic" in p.message for p in info.value.problems)
        return
    if verdict.startswith("REJECTED: "):
        with pytest.raises(SpecError) as info:
            check([path], options=OPTIONS)
        location = verdict.removeprefix("REJECTED: ")
        assert [p for p in info.value.problems if p.location == location and p.message]
        return
    if "needs -P" in verdict:
        with pytest.raises(SpecError, match="required inputs without a value"):
            check([path], options=OPTIONS)
        assert name in PARAMS, f"add the params {name} needs to PARAMS"
    result = check([path], params=PARAMS.get(name), options=OPTIONS)
    if verdict.startswith("fragment"):
        assert result.is_preset
        return
    assert verdict.startswith("valid"), verdict
    compiled = result.compiled
    assert compiled is not None
    assert compiled.run_kind in RUN_KINDS
    assert len(compiled.content_hash) == 64


def test_the_cycle_names_its_ops():
    path = CORPUS / "invalid/cyclic-dag.yaml"
    with pytest.raises(SpecError, match=r"fetch -> clean -> fetch|clean -> fetch -> clean"):
        check([path], options=OPTIONS)


def test_an_invalid_field_is_named_with_its_problem():
    with pytest.raises(SpecError) as info:
        check([CORPUS / "invalid/bad-field.yaml"], options=OPTIONS)
    assert [(p.location, p.message) for p in info.value.problems] == [
        ("termination.maxRetries", "expected an integer, got 'several'")
    ]


def test_a_container_typo_is_named_with_the_field_meant_and_the_other_problems():
    with pytest.raises(SpecError) as info:
        check([CORPUS / "invalid/container-typo.yaml"], options=OPTIONS)
    assert sorted((p.location, p.message) for p in info.value.problems) == [
        ("run.container.comand", "unknown field; did you mean 'command'?"),
        (
            "run.container.resources.limits.cpu",
            "expected a resource quantity such as 500m or 8Gi, got 'lots'",
        ),
    ]


def test_typed_trainer_renders_its_params():
    path = CORPUS / "jobs/typed.yaml"
    compiled = check([path], params={"epochs": "7"}, options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.input_values()["epochs"] == 7
    args = compiled.run["container"]["args"]
    assert "--epochs=7" in args
    assert "--lr=0.02" in args
    assert compiled.run["container"]["workingDir"] == (
        "/plx-context/artifacts/axonal-examples/training"
    )


def test_tune_dag_shape_and_refs():
    path = CORPUS / "dags/tune-dag.yaml"
    compiled = check([path], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.layers == [["train"], ["tune"], ["report"]]
    ops = {op.name: op for op in compiled.operations or []}
    tune = ops["tune"]
    assert {d.name for d in tune.deferred} >= {"train_loss"}
    assert tune.context_params["max_loss"] == 0.05  # ref: dag, read now
    assert tune.matrix is not None
    assert tune.matrix.kind == "random"
    assert tune.matrix.size == 12
    assert "--top=3" in ops["report"].run["container"]["args"]


def test_presets_compose_with_the_base_polyaxonfile():
    folder = CORPUS / "presets"
    result = check(
        [folder / "base.yaml"],
        presets=[folder / "git-init.yaml", folder / "termination.yaml"],
        options=OPTIONS,
    )
    compiled = result.compiled
    assert compiled is not None
    assert any("git" in item for item in compiled.run.get("init", []))
    assert compiled.termination is not None


def test_multi_file_composition_is_the_same_as_presets():
    folder = CORPUS / "presets"
    files = [folder / "base.yaml", folder / "git-init.yaml", folder / "termination.yaml"]
    composed = check(files, options=OPTIONS).compiled
    assert composed is not None
    assert composed.run["init"] == [{"git": {"url": "https://git.axonal.invalid/axonal-examples"}}]


def test_grid_with_concurrency_is_truncated():
    compiled = check([CORPUS / "matrices/grid-truncated.yaml"], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert (compiled.matrix.size, compiled.matrix.concurrency) == (5, 3)


def test_hyperopt_alias_and_quoted_limit_are_accepted():
    compiled = check([CORPUS / "matrices/hyperopt.yaml"], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.matrix is not None
    assert compiled.matrix.kind == "tpe"
    assert compiled.matrix.search_space
    compiled = check([CORPUS / "joins/compare.yaml"], options=OPTIONS).compiled
    assert compiled is not None
    assert compiled.joins[0]["limit"] == 3
