"""Every real polyaxonfile of the conformance corpus parses, and survives a round trip."""

from pathlib import Path

import pytest

from axonal_spec.compose import is_preset
from axonal_spec.models import Dag, Join
from axonal_spec.parsing import load

CORPUS = Path(__file__).parents[2].parent / "shared" / "conformance" / "polyaxonfiles"
FILES = sorted(
    p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json"}
)


def _id(path: Path) -> str:
    return str(path.relative_to(CORPUS))


def test_the_corpus_is_there():
    assert CORPUS.is_dir(), f"conformance corpus missing: expected it at {CORPUS}"
    assert len(FILES) >= 40, f"expected the 40+ corpus files under {CORPUS}, found {len(FILES)}"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_file_parses_and_round_trips(path: Path):
    parsed = load(path)
    document = parsed.to_dict()
    assert load(document) == parsed
    assert load(document).to_dict() == document


def _file(relative: str) -> Path:
    path = CORPUS / relative
    assert path.is_file(), f"missing corpus file {relative}"
    return path


def test_the_cycle_is_left_to_the_compiler():
    pipeline = load(_file("cli/cli/tests/fixtures/pipelines/cyclic_pipeline.yml"))
    assert isinstance(pipeline.runtime, Dag)
    assert isinstance(pipeline.runtime.operations, list)
    assert [op.dependencies for op in pipeline.runtime.operations] == [["B"], ["A"], ["B"]]


def test_a_quoted_join_limit_is_read_as_an_integer():
    op = load(_file("polyaxon-quick-start/scheduling/joins/performance_based_tensorboard.yaml"))
    assert isinstance(op.joins, list)
    assert isinstance(op.joins[0], Join)
    assert op.joins[0].limit == 5


def test_the_hyperopt_matrix_is_read_as_tpe():
    op = load(_file("polyaxon-quick-start/scheduling/optimization/hyperparams_hyperopot.yaml"))
    assert op.matrix is not None
    assert op.matrix.kind == "tpe"
    assert op.path_ref == "../experimentation/typed.yaml"


@pytest.mark.parametrize(
    "relative",
    [
        "polyaxon-quick-start/scheduling/helpers/termination.yaml",
        "polyaxon-quick-start/scheduling/presets/git-init.yaml",
    ],
)
def test_preset_fragments_are_presets(relative: str):
    assert is_preset(load(_file(relative)))
