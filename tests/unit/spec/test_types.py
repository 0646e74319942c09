"""IO types: parsing type strings, value conversion, validation rules, compatibility, -P."""

import datetime as dt
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from axonal_spec.errors import SpecError
from axonal_spec.types import (
    ANY,
    TYPE_NAMES,
    IOType,
    are_compatible,
    convert,
    parse_cli_params,
    parse_type,
)
from axonal_spec.validation import validate


def problems(exc: pytest.ExceptionInfo[SpecError]) -> list[tuple[str, str]]:
    return [(p.location, p.message) for p in exc.value.problems]


# --- parse_type ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_polyaxon_type_name_parses(name):
    assert parse_type(name) == IOType(name)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, ANY),
        ("", ANY),
        ("Any", ANY),
        ("List[float]", IOType("list", IOType("float"))),
        ("list[int]", IOType("list", IOType("int"))),
        ("List", IOType("list")),
        ("typing.List[str]", IOType("list", IOType("str"))),
        ("Dict[str, int]", IOType("dict", IOType("int"))),
        ("dict[str, Any]", IOType("dict", ANY)),
        ("Dict[str, List[float]]", IOType("dict", IOType("list", IOType("float")))),
        ("Optional[int]", IOType("int", optional=True)),
        ("int | None", IOType("int", optional=True)),
        ("Union[None, str]", IOType("str", optional=True)),
        ("List[Optional[float]]", IOType("list", IOType("float", optional=True))),
        ("List[s3]", IOType("list", IOType("s3"))),
    ],
)
def test_typing_strings(text, expected):
    assert parse_type(text) == expected


def test_is_list_legacy_flag_wraps_once():
    assert parse_type("float", is_list=True) == IOType("list", IOType("float"))
    assert parse_type("List[float]", is_list=True) == IOType("list", IOType("float"))
    assert parse_type("float", is_list=True).is_list


def test_type_round_trips_through_str():
    for text in ["List[float]", "Dict[str, int]", "Optional[List[s3]]", "dict", "uuid"]:
        assert str(parse_type(text)) == text
        assert parse_type(str(parse_type(text))) == parse_type(text)


@pytest.mark.parametrize(
    "text", ["floaty", "List[float", "Dict[int, str]", "Union[int, str]", "List[]", "int]", "x y"]
)
def test_bad_type_strings(text):
    with pytest.raises(SpecError) as exc:
        parse_type(text, location="inputs[0].type")
    assert exc.value.problems[0].location == "inputs[0].type"
    assert repr(text) in exc.value.problems[0].message
    assert "List[...]" in (exc.value.problems[0].hint or "")


# --- convert ---------------------------------------------------------------------------------

CONVERSIONS = [
    ("int", "5", 5),
    ("int", 5, 5),
    ("int", 5.0, 5),
    ("int", " 7 ", 7),
    ("float", "0.05", 0.05),
    ("float", 2, 2.0),
    ("float", "1e-3", 0.001),
    ("metric", "0.5", 0.5),
    ("bool", True, True),
    ("bool", "true", True),
    ("bool", "False", False),
    ("bool", "yes", True),
    ("bool", "off", False),
    ("bool", "1", True),
    ("bool", 1, True),
    ("bool", 0, False),
    ("str", "x", "x"),
    ("str", 12, "12"),
    ("str", 0.1, "0.1"),
    ("str", True, "true"),
    ("str", dt.date(2024, 1, 2), "2024-01-02"),
    ("any", {"a": [1]}, {"a": [1]}),
    ("path", "/data/x", "/data/x"),
    ("image", "python:3.11", "python:3.11"),
    ("dict", {"a": 1}, {"a": 1}),
    ("dict", '{"a": 1}', {"a": 1}),
    ("metadata", {"k": "v"}, {"k": "v"}),
    ("dict_of_dicts", {"a": {"b": 1}}, {"a": {"b": 1}}),
    ("list", (1, "a"), [1, "a"]),
    ("list", "[1, 2]", [1, 2]),
    ("date", "2024-01-02", "2024-01-02"),
    ("date", dt.date(2024, 1, 2), "2024-01-02"),
    ("datetime", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+00:00"),
    ("datetime", "2024-01-02 03:04", "2024-01-02T03:04:00"),
    ("datetime", dt.date(2024, 1, 2), "2024-01-02T00:00:00"),
    ("timedelta", 90, 90),
    ("timedelta", "1.5", 1.5),
    ("timedelta", dt.timedelta(minutes=2), 120),
    ("uuid", "6c2b2c3a4d0b4d6e9c5f0a1b2c3d4e5f", "6c2b2c3a4d0b4d6e9c5f0a1b2c3d4e5f"),
    (
        "uuid",
        uuid.UUID("6c2b2c3a-4d0b-4d6e-9c5f-0a1b2c3d4e5f"),
        "6c2b2c3a-4d0b-4d6e-9c5f-0a1b2c3d4e5f",
    ),
    ("email", "a.b@example.com", "a.b@example.com"),
    ("uri", "user:pass@host.example:5432", "user:pass@host.example:5432"),
    (
        "uri",
        {"user": "u", "password": "p", "host": "h"},
        {"user": "u", "password": "p", "host": "h"},
    ),
    ("auth", "user:secret", "user:secret"),
    ("auth", {"user": "u", "password": "p"}, {"user": "u", "password": "p"}),
    ("s3", "s3://bucket/some/key", "s3://bucket/some/key"),
    ("s3", {"bucket": "b", "key": "k"}, {"bucket": "b", "key": "k"}),
    ("gcs", "gs://bucket/blob", "gs://bucket/blob"),
    ("gcs", {"bucket": "b", "blob": "x"}, {"bucket": "b", "blob": "x"}),
    (
        "wasb",
        "wasbs://container@account.blob.core.windows.net/path",
        "wasbs://container@account.blob.core.windows.net/path",
    ),
    ("git", "https://github.com/org/repo", "https://github.com/org/repo"),
    ("git", {"url": "https://x/y", "revision": "main"}, {"url": "https://x/y", "revision": "main"}),
    ("artifacts", {"files": ["a"], "dirs": ["b"]}, {"files": ["a"], "dirs": ["b"]}),
    (
        "dockerfile",
        {"image": "python:3.11", "run": ["pip i x"]},
        {"image": "python:3.11", "run": ["pip i x"]},
    ),
    (
        "file",
        {"content": "print(1)", "filename": "a.py"},
        {"content": "print(1)", "filename": "a.py"},
    ),
    ("tensorboard", {"port": 6006}, {"port": 6006}),
    ("event", {"name": "e", "kind": "k"}, {"name": "e", "kind": "k"}),
    ("List[float]", ["0.1", 2], [0.1, 2.0]),
    ("List[int]", "[1, 2]", [1, 2]),
    ("Dict[str, int]", {"a": "1"}, {"a": 1}),
    ("List[Optional[int]]", [1, None], [1, None]),
    ("Optional[int]", None, None),
    ("int", None, None),
]


@pytest.mark.parametrize(("type_", "value", "expected"), CONVERSIONS)
def test_conversion(type_, value, expected):
    result = convert(type_, value, location="inputs.x")
    assert result == expected
    assert type(result) is type(expected)


FAILURES = [
    ("int", "abc"),
    ("int", True),
    ("int", 1.5),
    ("int", "1.5"),
    ("float", "abc"),
    ("float", False),
    ("float", [1]),
    ("bool", "maybe"),
    ("bool", 2),
    ("bool", "2"),
    ("str", {"a": 1}),
    ("str", [1]),
    ("path", ""),
    ("image", "my image"),
    ("dict", [1]),
    ("dict", "not json"),
    ("dict_of_dicts", {"a": 1}),
    ("list", "a,b"),
    ("list", 3),
    ("date", "02/01/2024"),
    ("date", dt.datetime(2024, 1, 2, 3, 4)),
    ("datetime", "yesterday"),
    ("timedelta", "soon"),
    ("timedelta", True),
    ("uuid", "not-a-uuid"),
    ("email", "nobody"),
    ("uri", "just-a-host"),
    ("uri", {"user": "u"}),
    ("auth", "no-colon"),
    ("s3", "gs://bucket/x"),
    ("s3", "s3://"),
    ("gcs", "s3://bucket/x"),
    ("wasb", "https://account.blob.core.windows.net/x"),
    ("git", 5),
    ("git", {"url": "x", "branch": "main"}),
    ("artifacts", {"paths": ["a"]}),
    ("dockerfile", {"run": ["x"]}),
    ("file", {"filename": "a.py"}),
    ("tensorboard", "x"),
]


@pytest.mark.parametrize(("type_", "value"), FAILURES)
def test_conversion_failure(type_, value):
    with pytest.raises(SpecError) as exc:
        convert(type_, value, location="inputs.x")
    [(location, message)] = problems(exc)
    assert location == "inputs.x"
    assert message.startswith(f"expected {type_}")
    assert message.endswith(f"got {value!r}")


def test_conversion_reports_every_element_at_its_location():
    with pytest.raises(SpecError) as exc:
        convert("List[int]", [1, "x", None, "3", "y"], location="inputs.sizes")
    assert problems(exc) == [
        ("inputs.sizes[1]", "expected int, got 'x'"),
        ("inputs.sizes[2]", "expected int, got None"),
        ("inputs.sizes[4]", "expected int, got 'y'"),
    ]
    with pytest.raises(SpecError) as exc:
        convert("Dict[str, float]", {"a": 1, "b": "z"}, location="inputs.w")
    assert problems(exc) == [("inputs.w.b", "expected float, got 'z'")]


def test_structured_failures_describe_the_accepted_form():
    with pytest.raises(SpecError, match=r"expected s3 \(s3://bucket/key\), got 'x'"):
        convert("s3", "x", location="inputs.data")


def test_bad_type_is_reported_by_convert():
    with pytest.raises(SpecError, match="invalid type 'nope'"):
        convert("nope", 1, location="inputs.x")


@given(st.integers())
def test_int_round_trip_through_text(n):
    assert convert("int", str(n), location="x") == n
    assert convert("str", n, location="x") == str(n)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_round_trip_through_text(f):
    assert convert("float", repr(f), location="x") == f


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
