"""check(): files merged in order, params, presets, preset fragments and their sources."""

from pathlib import Path

import pytest

from axonal_spec.checking import check
from axonal_spec.compiler import compile_operation
from axonal_spec.errors import SpecError
from axonal_spec.parsing import load

from .compiler_support import BASE_COMPONENT, write

# ---------------------------------------------------------------------------------------------
# check(): files merged in order, presets, preset fragments


@pytest.fixture
def files(tmp_path: Path) -> Path:
    write(
        tmp_path,
        "base.yaml",
        """
        kind: operation
        name: train
        params: {lr: 0.1}
        component:
          inputs:
          - {name: lr, type: float}
          - {name: epochs, type: int, value: 1}
          run:
            kind: job
            container: {image: "base:1", args: ["--lr={{ lr }}", "--epochs={{ epochs }}"]}
        """,
    )
    write(
        tmp_path,
        "override.yaml",
        """
        params: {lr: 0.7}
        runPatch: {container: {image: "override:2"}}
        """,
    )
    write(
        tmp_path,
        "preset.yaml",
        """
        isPreset: true
        queue: gpu
        runPatch: {container: {env: [{name: P, value: "1"}]}}
        """,
    )
    return tmp_path


def test_check_compiles_one_file(files: Path):
    result = check([files / "base.yaml"])
    assert not result.is_preset
    assert result.sources == (files / "base.yaml",)
    assert result.compiled is not None
    assert result.compiled.run["container"] == {
        "image": "base:1",
        "args": ["--lr=0.1", "--epochs=1"],
    }


def test_check_merges_files_in_order(files: Path):
    result = check([files / "base.yaml", files / "override.yaml"])
    compiled = result.compiled
    assert compiled is not None
    assert compiled.input_values() == {"lr": 0.7, "epochs": 1}
    assert compiled.run["container"] == {
        "image": "override:2",
        "args": ["--lr=0.7", "--epochs=1"],
    }
    later = write(files, "later.yaml", "params: {lr: 0.9}\n")
    last_wins = check([files / "base.yaml", files / "override.yaml", later]).compiled
    assert last_wins is not None
    assert last_wins.input_values()["lr"] == 0.9
    swapped = check([files / "base.yaml", later, files / "override.yaml"]).compiled
    assert swapped is not None
    assert swapped.input_values()["lr"] == 0.7


def test_check_applies_params_and_presets(files: Path):
    result = check([files / "base.yaml"], params={"epochs": "5"}, presets=[files / "preset.yaml"])
    compiled = result.compiled
    assert compiled is not None
    assert compiled.queue == "gpu"
    assert compiled.input_values() == {"lr": 0.1, "epochs": 5}
    assert compiled.run["container"]["env"] == [{"name": "P", "value": "1"}]


def test_a_lone_preset_fragment_is_valid_as_a_preset(files: Path):
    result = check([files / "preset.yaml"])
    assert result.is_preset
    assert result.compiled is None
    assert result.document.queue == "gpu"
    kindless = write(files, "fragment.yaml", "queue: q\nenvironment: {nodeSelector: {a: b}}\n")
    assert check([kindless]).is_preset


def test_check_errors_carry_the_source_file(files: Path):
    with pytest.raises(SpecError) as info:
        check([files / "base.yaml"], params={"lr": "fast"})
    assert info.value.source == str(files / "base.yaml")
    assert [(p.location, p.message) for p in info.value.problems] == [
        ("params.lr", "expected float, got 'fast'")
    ]
    with pytest.raises(SpecError) as missing:
        check([files / "nope.yaml"])
    assert missing.value.source == str(files / "nope.yaml")
    assert missing.value.problems[0].message == "cannot read the file: No such file or directory"
    with pytest.raises(SpecError, match="no polyaxonfile given"):
        check([])


def test_path_refs_are_relative_to_the_checked_file(tmp_path: Path):
    write(tmp_path, "component.yaml", BASE_COMPONENT)
    op = write(tmp_path, "op.yaml", "kind: operation\npathRef: component.yaml\nparams: {lr: 1}\n")
    compiled = check([op]).compiled
    assert compiled is not None
    assert compiled.run["container"]["args"] == ["--lr=1.0"]


def test_hooks_given_as_a_template_must_render_to_a_list():
    text = (
        "kind: component\n"
        "inputs: [{name: notify, type: list, value: [{hubRef: slack}], isOptional: true}]\n"
        "run: {kind: job, container: {image: busybox}}\n"
    )
    good = compile_operation(load(text + "hooks: '{{ notify }}'\n"))
    assert good.hooks == [{"hubRef": "slack"}]
    with pytest.raises(SpecError) as info:
        compile_operation(load(text + "hooks: '{{ nope }}'\n"))
    assert [p.location for p in info.value.problems] == ["hooks"]
