"""check() reports the problems of every phase at once where the phases are independent."""

from pathlib import Path
from typing import Any

import pytest

from axonal_spec.checking import check
from axonal_spec.errors import SpecError
from axonal_spec.salvage import salvage

from .compiler_support import write

CPU = (
    "run.container.resources.limits.cpu",
    "expected a resource quantity such as 500m or 8Gi, got 'lots'",
)
TYPO = ("run.container.comand", "unknown field; did you mean 'command'?")

#: A job whose problems lie in the schema (input type, cpu, a container typo) and beyond it
#: (a default of the wrong type, found when the inputs are bound).
BROKEN = """
    kind: component
    name: train
    inputs:
    - {name: epochs, type: integr, value: 3}
    - {name: lr, type: float, value: fast}
    run:
      kind: job
      container:
        image: python:3.12
        comand: [python, train.py]
        resources: {limits: {cpu: lots}}
"""


def found(path: Path, **params: Any) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as info:
        check([path], params=params or None)
    return [(p.location, p.message) for p in info.value.problems]


def test_schema_and_binding_problems_come_together(tmp_path: Path):
    problems = found(write(tmp_path, "broken.yaml", BROKEN))
    assert problems == [
        ("inputs[0].type", "invalid type 'integr': unknown type 'integr'; did you mean 'int'?"),
        CPU,
        TYPO,
        ("inputs[1]", "expected float, got 'fast'"),
    ]


def test_a_problem_others_depend_on_stops_after_the_schema(tmp_path: Path):
    """A bad run kind: what the component runs is unknown, compiling it would only guess (the
    default of the wrong type is not reported yet)."""
    text = BROKEN.replace("kind: job", "kind: jbo")
    problems = found(write(tmp_path, "kind.yaml", text))
    assert [where for where, _ in problems] == ["inputs[0].type", "run.kind"]


def test_a_file_with_only_leaf_problems_reports_nothing_more(tmp_path: Path):
    text = BROKEN.replace("integr", "int").replace("value: fast", "value: 0.1")
    assert found(write(tmp_path, "leaf.yaml", text)) == [CPU, TYPO]


def test_later_phases_see_the_params(tmp_path: Path):
    text = BROKEN.replace("value: fast", "value: 0.1").replace(", value: 3", "")
    path = write(tmp_path, "params.yaml", text)
    assert ("inputs", "required inputs without a value: epochs") in found(path)
    assert [where for where, _ in found(path, epochs=2)] == [
        "inputs[0].type",
        "run.container.resources.limits.cpu",
        "run.container.comand",
    ]


def test_salvage_drops_leaf_values_until_the_rest_is_valid():
    document = {
        "kind": "component",
        "inputs": [{"name": "a", "type": "nope"}, {"name": "b", "type": "nope"}],
        "run": {
            "kind": "job",
            "init": [{"file": {"filename": "x"}}],  # no content: the item ends up empty
            "container": {"image": "x", "tyy": True},
        },
    }
    salvaged = salvage(document)
    assert salvaged is not None
    assert [(io.name, io.type) for io in salvaged.inputs or []] == [("a", None), ("b", None)]
    assert salvaged.to_dict()["run"] == {"kind": "job", "init": [], "container": {"image": "x"}}
    assert document["run"]["container"]["tyy"] is True  # the caller's document is untouched


@pytest.mark.parametrize(
    "document",
    [
        {"kind": "component", "run": {"kind": "job"}},  # valid: nothing to salvage
        {"kind": "component", "name": "a b", "run": {"kind": "job", "container": {"tyy": 1}}},
        {"kind": "component", "inputs": [{"type": "int"}], "run": {"kind": "job"}},
    ],
    ids=["valid", "bad-name", "io-without-name"],
)
def test_salvage_gives_up_where_the_rest_depends_on_the_problem(document: dict[str, Any]):
    assert salvage(document) is None
