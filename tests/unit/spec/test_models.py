"""The polyaxonfile models: inputs, outputs and params (the 2.18 short forms and the §1.4 rules)."""

from typing import Any

import pytest

from axonal_spec.models import (
    IO,
    Param,
    Polyaxonfile,
)

from .models_support import parse, problems

# --- inputs / outputs ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["globals", "params", "connections"])
def test_reserved_io_names_are_rejected(name: str):
    assert problems({"inputs": [{"name": name, "type": "str"}]}) == [
        ("inputs[0].name", f"'{name}' is a reserved name (connections, globals, params)")
    ]


def test_a_default_value_makes_an_io_optional():
    pf = parse("inputs: [{name: a, type: int, value: 1}, {name: b, value: null}, {name: c}]")
    assert [io.is_optional for io in pf.inputs or []] == [True, True, None]
    assert [io.is_required for io in pf.inputs or []] == [False, False, True]


def test_a_default_value_with_is_optional_false_is_rejected():
    assert problems({"outputs": [{"name": "x", "value": 3, "isOptional": False}]}) == [
        ("outputs[0].isOptional", "'x' has a default value 3, so it cannot be isOptional: false")
    ]


def test_is_flag_needs_a_bool_type():
    assert problems({"inputs": [{"name": "f", "type": "int", "isFlag": True}]}) == [
        ("inputs[0].isFlag", "isFlag needs type: bool, got type 'int'")
    ]
    assert parse("inputs: [{name: f, type: bool, isFlag: true}]").inputs


def test_options_and_delay_validation_move_into_validation():
    io = IO.model_validate({"name": "lr", "options": [0.1, 0.2], "delayValidation": True})
    assert io.validation is not None
    assert io.validation.options == [0.1, 0.2]
    assert io.validation.delay is True
    assert io.to_dict() == {
        "name": "lr",
        "validation": {"delay": True, "options": [0.1, 0.2]},
    }


def test_validation_fields_are_typed():
    assert problems({"inputs": [{"name": "a", "validation": {"minLength": "x"}}]}) == [
        ("inputs[0].validation.minLength", "expected an integer, got 'x'")
    ]


# --- params ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"),
    [
        (0.1, 0.1),
        ("adam", "adam"),
        ([1, 2], [1, 2]),
        ({"optimizer": "adam", "lr": 0.1}, {"optimizer": "adam", "lr": 0.1}),
        (None, None),
        ({}, None),
    ],
)
def test_the_short_form_of_a_param_is_its_value(written: Any, value: Any):
    pf = Polyaxonfile.model_validate({"params": {"p": written}})
    assert pf.params == {"p": Param(value=value)}


def test_the_long_form_of_a_param():
    pf = parse(
        "params:\n"
        "  a: {value: 1, contextOnly: true, toEnv: A}\n"
        "  b: {ref: ops.train, value: outputs.loss}\n"
        "  c: {ref: dag, value: '{{ inputs.x }}'}\n"
        "  d: {ref: runs.7b6a3c3e-9b6a-4a4e-8f63-1b0e0f0c4d1a, value: artifacts.base.model}\n"
        "  e: {value: '{{ globals.uuid }}'}\n"
    )
    params = pf.params or {}
    assert params["a"].context_only is True
    assert params["a"].to_env == "A"
    assert (params["b"].ref_kind, params["b"].ref_entity) == ("ops", "train")
    assert (params["c"].ref_kind, params["c"].ref_entity) == ("dag", None)
    assert params["d"].ref_entity == "7b6a3c3e9b6a4a4e8f631b0e0f0c4d1a"
    assert params["e"].is_template
    assert not params["b"].is_template


@pytest.mark.parametrize(
    ("param", "location", "message"),
    [
        (
            {"ref": "op.x", "value": "outputs"},
            "params.p.ref",
            "ref must be 'dag', 'ops.<op-name>' or 'runs.<uuid>', got 'op.x'",
        ),
        (
            {"ref": "runs.not-a-uuid", "value": "outputs"},
            "params.p.ref",
            "ref must be 'dag', 'ops.<op-name>' or 'runs.<uuid>', got 'runs.not-a-uuid'",
        ),
        (
            {"ref": "ops.a", "value": 3},
            "params.p.value",
            "with a ref, value must be a string such as 'outputs.loss', got 3",
        ),
        (
            {"ref": "ops.a", "value": "metrics"},
            "params.p.value",
            "value must be one of globals, inputs, outputs, artifacts, io (or a dotted path), "
            "got 'metrics'",
        ),
        (
            {"ref": "ops.a", "value": "io.x"},
            "params.p.value",
            "value must start with one of globals, inputs, outputs, artifacts, got 'io.x'",
        ),
        (
            {"ref": "ops.a", "value": "outputs.a.b"},
            "params.p.value",
            "only artifacts.<x>.<y> may have three parts, got 'outputs.a.b'",
        ),
        (
            {"ref": "ops.a", "value": "artifacts.a.b.c"},
            "params.p.value",
            "cannot read 'artifacts.a.b.c' from a ref",
        ),
        (
            {"ref": "dag", "value": "outputs.loss"},
            "params.p.value",
            "a 'dag' ref cannot read the outputs of the current DAG",
        ),
        ({"value": 1, "foo": 2}, "params.p.foo", "unknown key 'foo'"),
    ],
)
def test_bad_params_are_rejected(param: dict[str, Any], location: str, message: str):
    assert problems({"params": {"p": param}}) == [(location, message)]


def test_join_params_take_no_ref():
    assert problems({"joins": [{"query": "q", "params": {"u": {"ref": "dag", "value": "x"}}}]}) == [
        ("joins[0].params.u.ref", "unknown key 'ref'")
    ]
