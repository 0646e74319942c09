"""Every polyaxonfile of the project's fixtures parses, and survives a round trip."""

from pathlib import Path

import pytest

from axonal_spec import SpecError
from axonal_spec.composition import is_preset
from axonal_spec.models import Dag, Join
from axonal_spec.parsing import load
from axonal_testing.conformance import project_fixtures, readme_outcomes

FIXTURES = project_fixtures()
CORPUS = FIXTURES / "polyaxonfiles"
FILES = sorted(
    p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json"}
)
#: Files the table says are refused at a field: they do not parse (see the last test).
REFUSED_AT = {
    name: verdict.removeprefix("REJECTED: ")
    for name, verdict in readme_outcomes(FIXTURES / "README.md").items()
    if verdict.startswith("REJECTED: ") and verdict != "REJECTED: cycle"
}


def _id(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


def test_the_fixtures_are_there():
    assert len(FILES) >= 44, f"expected the 44+ fixture polyaxonfiles under {CORPUS}"
    assert REFUSED_AT, "the table names the intentionally invalid files"


@pytest.mark.parametrize("path", [p for p in FILES if _id(p) not in REFUSED_AT], ids=_id)
def test_every_file_parses_and_round_trips(path: Path):
    parsed = load(path)
    document = parsed.to_dict()
    assert load(document) == parsed
    assert load(document).to_dict() == document


def _file(relative: str) -> Path:
    path = CORPUS / relative
    assert path.is_file(), f"missing fixture {relative}"
    return path


def test_the_cycle_is_left_to_the_compiler():
    pipeline = load(_file("invalid/cyclic-dag.yaml"))
    assert isinstance(pipeline.runtime, Dag)
    assert isinstance(pipeline.runtime.operations, list)
    assert [op.dependencies for op in pipeline.runtime.operations] == [
        ["clean"],
        ["fetch"],
        ["clean"],
    ]


def test_a_quoted_join_limit_is_read_as_an_integer():
    op = load(_file("joins/compare.yaml"))
    assert isinstance(op.joins, list)
    assert isinstance(op.joins[0], Join)
    assert op.joins[0].limit == 3


def test_the_hyperopt_matrix_is_read_as_tpe():
    op = load(_file("matrices/hyperopt.yaml"))
    assert op.matrix is not None
    assert op.matrix.kind == "tpe"
    assert op.path_ref == "../jobs/typed.yaml"


@pytest.mark.parametrize("relative", ["presets/termination.yaml", "presets/git-init.yaml"])
def test_preset_fragments_are_presets(relative: str):
    assert is_preset(load(_file(relative)))


@pytest.mark.parametrize("name", sorted(REFUSED_AT))
def test_an_invalid_field_is_named_with_its_problem(name: str):
    with pytest.raises(SpecError) as info:
        load(FIXTURES / name)
    located = [p for p in info.value.problems if p.location == REFUSED_AT[name]]
    assert located, info.value.problems
    assert all(p.message for p in located)
