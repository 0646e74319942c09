"""IO types: validation rules, compatibility of outputs with inputs, and -P name=value."""

import pytest

from axonal_spec.errors import SpecError
from axonal_spec.types import (
    IOType,
    are_compatible,
    convert,
    parse_cli_params,
)
from axonal_spec.validation import validate

from .types_support import problems

# --- validation ------------------------------------------------------------------------------

PASSING = [
    (5, {"gt": 4}),
    (5, {"ge": 5}),
    (5, {"lt": 6}),
    (5, {"le": 5}),
    (0.3, {"multipleOf": 0.1}),
    (15, {"multipleOf": 5}),
    (123, {"minDigits": 3}),
    (12.5, {"maxDigits": 3}),
    (0.05, {"maxDigits": 2}),
    (1.25, {"decimalPlaces": 2}),
    (3, {"decimalPlaces": 0}),
    ("s3://bucket/key", {"regex": r"^s3://(?P<bucket>[a-z0-9-.]{3,63})/(?P<key>.+)$"}),
    ("abc", {"minLength": 3}),
    ("abc", {"maxLength": 3}),
    ("hello world", {"contains": "world"}),
    (["a", "b"], {"contains": ["a", "b"]}),
    ({"k": "v"}, {"contains": "v"}),
    ("hello", {"excludes": "x"}),
    ([1, 2], {"excludes": 3}),
    ("adam", {"options": ["adam", "sgd"]}),
    ([1, 2], {"minItems": 2}),
    ({"a": 1}, {"maxItems": 1}),
    ({"a": 1, "b": 2}, {"keys": ["b", "a"]}),
    ({"a": 1, "b": 2}, {"containsKeys": ["a"]}),
    ({"a": 1}, {"excludesKeys": ["b"]}),
    ([0.1, 0.2], {"gt": 0, "lt": 1}),
    ({"x": 2, "y": 3}, {"ge": 2}),
    (None, {"gt": 10}),
    (5, {"gt": None, "delay": True}),
]


@pytest.mark.parametrize(("value", "rules"), PASSING)
def test_validation_passes(value, rules):
    validate(value, rules, location="inputs.x")


FAILING = [
    (4, {"gt": 4}, "4 must be greater than 4 (gt)"),
    (4, {"ge": 5}, "4 must be greater than or equal to 5 (ge)"),
    (6, {"lt": 6}, "6 must be less than 6 (lt)"),
    (6, {"le": 5}, "6 must be less than or equal to 5 (le)"),
    (0.35, {"multipleOf": 0.1}, "0.35 must be a multiple of 0.1 (multipleOf)"),
    (12, {"minDigits": 3}, "12 needs at least 3 digits (minDigits)"),
    (123.4, {"maxDigits": 3}, "123.4 has more than 3 digits (maxDigits)"),
    (1.255, {"decimalPlaces": 2}, "1.255 has more than 2 decimal places (decimalPlaces)"),
    ("http://x", {"regex": "^s3://"}, "'http://x' does not match '^s3://' (regex)"),
    ("ab", {"minLength": 3}, "'ab' is shorter than 3 characters (minLength)"),
    ("abcd", {"maxLength": 3}, "'abcd' is longer than 3 characters (maxLength)"),
    ("hello", {"contains": "world"}, "'hello' must contain 'world' (contains)"),
    (["a"], {"contains": ["a", "b"]}, "['a'] must contain 'b' (contains)"),
    ("hello", {"excludes": "ell"}, "'hello' must not contain 'ell' (excludes)"),
    ("rmsprop", {"options": ["adam", "sgd"]}, "'rmsprop' is not one of ['adam', 'sgd'] (options)"),
    ([1], {"minItems": 2}, "[1] must have at least 2 items (minItems)"),
    ([1, 2], {"maxItems": 1}, "[1, 2] must have at most 1 items (maxItems)"),
    ({"a": 1}, {"keys": ["a", "b"]}, "{'a': 1} must have exactly the keys ['a', 'b'] (keys)"),
    ({"a": 1}, {"containsKeys": ["b"]}, "{'a': 1} is missing the keys ['b'] (containsKeys)"),
    ({"a": 1}, {"excludesKeys": ["a"]}, "{'a': 1} must not have the keys ['a'] (excludesKeys)"),
    ("x", {"gt": 1}, "'x' is not a number (gt)"),
    (5, {"minLength": 1}, "5 is not a string (minLength)"),
    (5, {"minItems": 1}, "5 is not a list or dict (minItems)"),
    ([1], {"keys": ["a"]}, "[1] is not a dict (keys)"),
    ("x", {"regex": "("}, "'x' cannot be checked: invalid regex '(' "),
]


@pytest.mark.parametrize(("value", "rules", "message"), FAILING)
def test_validation_fails_at_location(value, rules, message):
    with pytest.raises(SpecError) as exc:
        validate(value, rules, location="inputs.x")
    [(location, got)] = problems(exc)
    assert location == "inputs.x"
    assert got.startswith(message)


def test_validation_is_element_wise_and_reports_everything():
    with pytest.raises(SpecError) as exc:
        validate([0.5, 2.0, -1.0], {"gt": 0, "lt": 1, "maxItems": 2}, location="inputs.lrs")
    assert problems(exc) == [
        ("inputs.lrs[1]", "2.0 must be less than 1 (lt)"),
        ("inputs.lrs[2]", "-1.0 must be greater than 0 (gt)"),
        ("inputs.lrs", "[0.5, 2.0, -1.0] must have at most 2 items (maxItems)"),
    ]
    with pytest.raises(SpecError) as exc:
        validate({"a": "adam", "b": "x"}, {"options": ["adam"]}, location="inputs.opt")
    assert problems(exc) == [("inputs.opt.b", "'x' is not one of ['adam'] (options)")]


def test_validation_accepts_snake_case_and_rejects_unknown_rules():
    validate(10, {"multiple_of": 5, "min_digits": 2}, location="x")
    with pytest.raises(SpecError) as exc:
        validate(10, {"between": [1, 2]}, location="inputs.x")
    assert problems(exc) == [("inputs.x.validation", "unknown rule 'between'")]


# --- compatibility ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "input_", "ok"),
    [
        ("float", "float", True),
        ("int", "float", True),
        ("float", "int", False),
        ("metric", "float", True),
        ("path", "str", True),
        ("s3", "path", True),
        ("str", "int", False),
        (None, "int", True),
        ("any", "List[int]", True),
        ("List[int]", "List[float]", True),
        ("List[float]", "float", False),
        ("float", "List[float]", False),
        ("List[float]", "List[int]", False),
        ("list", "List[int]", True),
        ("dict_of_dicts", "dict", True),
        ("Dict[str, int]", "Dict[str, float]", True),
        ("git", "artifacts", False),
        (IOType("list", IOType("int")), "float", False),
    ],
)
def test_are_compatible(output, input_, ok):
    assert are_compatible(output, input_) is ok


# --- -P name=value ---------------------------------------------------------------------------


def test_parse_cli_params():
    args = [
        "lr=0.1",
        "name=x",
        "tags=[1,2]",
        "epochs=10",
        "flag=true",
        "cfg={a: 1, b: [x]}",
        "quoted='0.10'",
        "version=1.10",
        "sci=1e-3",
        "zeros=007",
        "none=null",
        "empty=",
        "msg=a=b # not a comment",
        " spaced = hi ",
    ]
    assert parse_cli_params(args) == {
        "lr": 0.1,
        "name": "x",
        "tags": [1, 2],
        "epochs": 10,
        "flag": True,
        "cfg": {"a": 1, "b": ["x"]},
        "quoted": "0.10",
        "version": "1.10",
        "sci": "1e-3",
        "zeros": "007",
        "none": None,
        "empty": None,
        "msg": "a=b # not a comment",
        "spaced": "hi",
    }


def test_cli_text_is_converted_by_the_io_type():
    params = parse_cli_params(["version=1.10", "lr=1e-3", "on=yes"])
    assert convert("str", params["version"], location="x") == "1.10"
    assert convert("float", params["lr"], location="x") == 0.001
    assert convert("bool", params["on"], location="x") is True


def test_cli_errors_name_the_argument():
    with pytest.raises(SpecError) as exc:
        parse_cli_params(["lr0.1", "=3", "a=1", "a=2", "b=[1,"])
    messages = [m for _, m in problems(exc)]
    assert messages[0] == "expected name=value, got 'lr0.1'"
    assert messages[1] == "expected name=value, got '=3'"
    assert messages[2] == "param 'a' is given more than once"
    assert messages[3].startswith("cannot read 'b=[1,' as YAML")
    assert {loc for loc, _ in problems(exc)} == {"-P"}
