"""IO types: parsing type strings and converting values."""

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
    convert,
    parse_type,
)

from .types_support import problems

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
