"""``pathRef`` inlining by the CLI: relative to the referring file, recursive, cycles refused."""

from pathlib import Path

import pytest
import yaml

from axonal.cli.inline import InlineError, inline_path_refs

TRAIN = "kind: component\nname: train\nrun: {kind: job, container: {command: [echo, hi]}}\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_file_without_path_refs_is_sent_as_written():
    text = "kind: operation\n# a comment\nhubRef: tensorboard\n"
    assert inline_path_refs(text, Path("op.yaml")) == text


def test_path_refs_are_inlined_relative_to_the_file_that_names_them(tmp_path):
    _write(tmp_path / "components" / "train.yaml", TRAIN)
    _write(
        tmp_path / "components" / "dag.yaml",
        "kind: component\nrun:\n  kind: dag\n  operations:\n"
        "  - {name: a, pathRef: ./train.yaml}\n  - {name: b, pathRef: train.yaml}\n",
    )
    op = _write(
        tmp_path / "op.yaml",
        "kind: operation\nparams: {x: {value: 1}}\npathRef: components/dag.yaml\n",
    )
    doc = yaml.safe_load(inline_path_refs(op.read_text(), op))
    assert "pathRef" not in doc
    assert doc["params"] == {"x": {"value": 1}}
    operations = doc["component"]["run"]["operations"]
    assert [o["name"] for o in operations] == ["a", "b"]
    assert all(o["component"]["name"] == "train" and "pathRef" not in o for o in operations)


def test_a_missing_file_or_a_cycle_is_a_clear_error(tmp_path):
    op = _write(tmp_path / "op.yaml", "kind: operation\npathRef: ./nowhere.yaml\n")
    with pytest.raises(InlineError, match=r"'\./nowhere\.yaml': cannot read"):
        inline_path_refs(op.read_text(), op)
    loop = _write(tmp_path / "loop.yaml", "kind: operation\npathRef: ./loop.yaml\n")
    with pytest.raises(InlineError, match="a cycle"):
        inline_path_refs(loop.read_text(), loop)
    scalar = _write(tmp_path / "scalar.yaml", "kind: operation\npathRef: ./value.yaml\n")
    _write(tmp_path / "value.yaml", "42\n")
    with pytest.raises(InlineError, match="not a component"):
        inline_path_refs(scalar.read_text(), scalar)
