"""``axonal check``: valid files, JSON and compiled output, located errors, params, URL maps."""

import json
from pathlib import Path
from textwrap import dedent

import pytest
import yaml
from click.testing import Result
from typer.testing import CliRunner

import axonal.cli

WIDE = {"COLUMNS": "200", "NO_COLOR": "1"}

TRAIN = """
    kind: component
    name: train
    inputs:
    - {name: lr, type: float, value: 0.1}
    - {name: epochs, type: int, value: 1}
    run:
      kind: job
      container: {image: "python:3.12", args: ["--lr={{ lr }}", "--epochs={{ epochs }}"]}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text))
    return path


def rows(text: str) -> list[list[str]]:
    """The cells of every table row in ``text`` (box borders and padding dropped)."""
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.replace("┃", "│").split("│")]
        cells = [cell for cell in cells if cell]
        if len(cells) > 1:
            found.append(cells)
    return found


def run(*args: str | Path) -> Result:
    result = CliRunner().invoke(axonal.cli.app, ["check", *map(str, args)], env=WIDE)
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def train(tmp_path: Path) -> Path:
    return write(tmp_path, "train.yaml", TRAIN)


def test_a_valid_file_prints_its_name_and_runtime(train: Path):
    result = run("-f", train)
    assert result.exit_code == 0, result.output
    assert f"valid component: {train}" in result.stdout
    lines = [" ".join(line.strip("│ ").split()) for line in result.stdout.splitlines()]
    assert "name train" in lines
    assert "runtime job" in lines
    assert ["in", "lr", "float", "0.1", "default"] in rows(result.stdout)
    assert ["in", "epochs", "int", "1", "default"] in rows(result.stdout)


def test_json_prints_the_compiled_operation(train: Path):
    result = run("-f", train, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["valid"] is True
    assert doc["preset"] is False
    compiled = doc["compiled"]
    assert compiled["name"] == "train"
    assert compiled["run_kind"] == "job"
    assert compiled["run"]["container"]["args"] == ["--lr=0.1", "--epochs=1"]
    assert len(compiled["content_hash"]) == 64


def test_params_are_applied_and_converted(train: Path):
    result = run("-f", train, "-P", "lr=0.3", "--param", "epochs=7", "--json")
    assert result.exit_code == 0, result.output
    compiled = json.loads(result.stdout)["compiled"]
    assert [(i["name"], i["value"], i["source"]) for i in compiled["inputs"]] == [
        ("lr", 0.3, "cli"),
        ("epochs", 7, "cli"),
    ]
    assert compiled["run"]["container"]["args"] == ["--lr=0.3", "--epochs=7"]
    shown = run("-f", train, "-P", "lr=0.3")
    assert ["in", "lr", "float", "0.3", "cli"] in rows(shown.stdout)


def test_compile_prints_the_compiled_operation_as_yaml(train: Path):
    result = run("-f", train, "--compile", "-P", "lr=0.5")
    assert result.exit_code == 0, result.output
    text = result.stdout[result.stdout.index("name: train") :]
    compiled = yaml.safe_load(text)
    assert compiled["run"] == {
        "container": {"image": "python:3.12", "args": ["--lr=0.5", "--epochs=1"]},
        "kind": "job",
    }
    assert compiled["inputs"][0] == {
        "name": "lr",
        "type": "float",
        "value": 0.5,
        "is_optional": True,
        "source": "cli",
    }


def test_an_invalid_file_shows_each_problem_where_it_is(tmp_path: Path):
    bad = write(
        tmp_path,
        "bad.yaml",
        """
        kind: component
        run:
          kind: job
          containerr: {image: i}
        """,
    )
    result = run("-f", bad)
    assert result.exit_code == 1
    assert f"{bad}: 1 problem" in result.stderr
    assert ["run.containerr", "unknown key 'containerr'; did you mean 'container'?"] in rows(
        result.stderr
    )
    assert result.stdout == ""


def test_compile_errors_show_location_message_and_hint(tmp_path: Path):
    bad = write(
        tmp_path,
        "bad.yaml",
        """
        kind: component
        inputs: [{name: a, type: int}, {name: b, type: str}]
        run: {kind: job, container: {image: i, args: ["{{ ops.x.outputs.y }}"]}}
        """,
    )
    result = run("-f", bad)
    assert result.exit_code == 1
    assert f"{bad}: 2 problems" in result.stderr
    table = rows(result.stderr)
    assert [
        "inputs",
        "required inputs without a value: a, b",
        "pass them as params, e.g. -P a=... -P b=...",
    ] in table
    assert [
        "run.container.args[0]",
        "templates cannot read 'ops.x.outputs.y' (in '{{ ops.x.outputs.y }}')",
        "use `ref: ops.x` with `value: outputs.y`",
    ] in table


def test_an_invalid_param_is_reported_at_the_param(train: Path):
    result = run("-f", train, "-P", "lr=fast")
    assert result.exit_code == 1
    assert "params.lr" in result.stderr
    assert "expected float, got 'fast'" in result.stderr
    malformed = run("-f", train, "-P", "lr")
    assert malformed.exit_code == 1
    assert "expected name=value, got 'lr'" in malformed.stderr
    unknown = run("-f", train, "-P", "bogus=1")
    assert unknown.exit_code == 1
    assert "-P bogus: no input or output named 'bogus' (inputs: epochs, lr)" in unknown.stderr


def test_json_errors_are_machine_readable(train: Path):
    result = run("-f", train, "-P", "epochs=x", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "valid": False,
        "source": str(train),
        "problems": [
            {"location": "params.epochs", "message": "expected int, got 'x'", "hint": None}
        ],
    }


def test_yaml_syntax_errors_have_no_traceback(tmp_path: Path):
    broken = write(tmp_path, "broken.yaml", "kind: component\nrun: [unclosed\n")
    result = run("-f", broken)
    assert result.exit_code == 1
    assert "invalid YAML at line" in result.stderr


def test_url_map_serves_a_url_ref_from_a_local_folder(tmp_path: Path):
    write(tmp_path, "mirror/components/train.yaml", TRAIN)
    op = write(
        tmp_path,
        "op.yaml",
        """
        kind: operation
        urlRef: https://example.com/hub/components/train.yaml
        params: {lr: 0.9}
        """,
    )
    result = run("-f", op, "--url-map", f"https://example.com/hub/={tmp_path / 'mirror'}", "--json")
    assert result.exit_code == 0, result.output
    compiled = json.loads(result.stdout)["compiled"]
    assert compiled["name"] == "train"
    assert compiled["run"]["container"]["args"] == ["--lr=0.9", "--epochs=1"]
    local = tmp_path / "mirror" / "components" / "train.yaml"
    exact = f"https://example.com/hub/components/train.yaml={local}"
    assert run("-f", op, "--url-map", exact).exit_code == 0


def test_a_malformed_url_map_is_a_usage_error(train: Path):
    result = run("-f", train, "--url-map", "no-equals-sign")
    assert result.exit_code == 2
    assert "expected URL=PATH" in result.output


def test_a_preset_fragment_is_a_valid_preset(tmp_path: Path):
    preset = write(tmp_path, "preset.yaml", "isPreset: true\nqueue: gpu\n")
    result = run("-f", preset)
    assert result.exit_code == 0, result.output
    assert f"{preset}: valid preset" in result.stdout
    as_json = run("-f", preset, "--json")
    assert json.loads(as_json.stdout) == {"valid": True, "preset": True, "warnings": []}


def test_files_and_presets_are_merged(train: Path, tmp_path: Path):
    override = write(tmp_path, "override.yaml", "params: {lr: 0.7}\n")
    preset = write(tmp_path, "preset.yaml", "isPreset: true\nqueue: gpu\n")
    result = run("-f", train, "-f", override, "--preset", preset, "--json")
    assert result.exit_code == 0, result.output
    compiled = json.loads(result.stdout)["compiled"]
    assert compiled["queue"] == "gpu"
    assert compiled["run"]["container"]["args"] == ["--lr=0.7", "--epochs=1"]


def test_a_dag_shows_its_operations(tmp_path: Path):
    pipeline = write(
        tmp_path,
        "dag.yaml",
        """
        kind: operation
        component:
          name: pipe
          run:
            kind: dag
            operations:
            - {name: first, component: {run: {kind: job, container: {image: a}}}}
            - name: second
              dependencies: [first]
              component: {run: {kind: job, container: {image: b}}}
        """,
    )
    result = run("-f", pipeline)
    assert result.exit_code == 0, result.output
    assert "runtime    dag" in result.stdout
    assert "first" in result.stdout
    assert "second ← first" in result.stdout


def test_a_missing_file_is_a_clear_error(tmp_path: Path):
    missing = tmp_path / "nope.yaml"
    result = run("-f", missing)
    assert result.exit_code in (1, 2)
    assert str(missing) in result.output
    assert "cannot read the file: No such file or directory" in result.output


def test_the_file_option_is_required():
    result = run()
    assert result.exit_code == 2
    assert "--file" in result.output


def test_text_that_looks_like_rich_markup_is_shown_as_written(tmp_path: Path):
    odd = write(
        tmp_path,
        "odd.yaml",
        """
        kind: component
        "[/]": 1
        run: {kind: job, container: {image: i}}
        """,
    )
    result = run("-f", odd)
    assert result.exit_code == 1
    assert ["[/]", "unknown key '[/]'"] in rows(result.stderr)
    typed = write(
        tmp_path,
        "typed.yaml",
        """
        kind: component
        inputs: [{name: msg, type: str}, {name: sizes, type: "List[int]", value: [1]}]
        run: {kind: job, container: {image: i}}
        """,
    )
    shown = run("-f", typed, "-P", "msg='[/]'")
    assert shown.exit_code == 0, shown.output
    assert ["in", "msg", "str", "[/]", "cli"] in rows(shown.stdout)
    assert ["in", "sizes", "List[int]", "[1]", "default"] in rows(shown.stdout)


KUBERNETES = """
    kind: component
    environment: {nodeSelector: {gpu: "true"}}
    run: {kind: job, container: {command: [echo, hi]}}
"""


def test_a_field_the_local_agent_ignores_is_warned_about(tmp_path: Path):
    path = write(tmp_path, "k8s.yaml", KUBERNETES)
    result = run("-f", path)
    assert result.exit_code == 0, result.output
    assert (
        "warning: environment.nodeSelector is ignored by the local agent: a Kubernetes setting"
        in " ".join(result.stderr.split())
    )
    assert "warning" not in result.stdout


def test_the_json_output_lists_the_warnings(tmp_path: Path):
    path = write(tmp_path, "k8s.yaml", KUBERNETES)
    result = run("-f", path, "--json")
    warnings = json.loads(result.stdout)["warnings"]
    assert [(w["location"], w["agent"]) for w in warnings] == [
        ("environment.nodeSelector", "local")
    ]
    assert warnings[0]["message"].startswith("`environment.nodeSelector` is ignored by the local")
