import json
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from axonal_spec.errors import SpecError
from axonal_spec.matrix import (
    Choice,
    DateTimeRange,
    LinSpace,
    LogSpace,
    PChoice,
    Range,
    Uniform,
    parse_hyperparam,
)

# Each kind written the three ways Polyaxon accepts (``choice``/``pchoice`` only take lists).
FORMS = {
    "range": ("1:10:2", [1, 10, 2], {"start": 1, "stop": 10, "step": 2}),
    "linspace": ("0.001:0.1:5", [0.001, 0.1, 5], {"start": 0.001, "stop": 0.1, "num": 5}),
    "logspace": ("0:3:4:2", [0, 3, 4, 2], {"start": 0, "stop": 3, "num": 4, "base": 2}),
    "geomspace": ("1:1000:4", [1, 1000, 4], {"start": 1, "stop": 1000, "num": 4}),
    "daterange": (
        "2019-06-22:2019-06-25:1",
        ["2019-06-22", "2019-06-25", 1],
        {"start": "2019-06-22", "stop": "2019-06-25", "step": 1},
    ),
    "datetimerange": (
        "2019-06-22T21:00:00+02:00:2019-06-23T00:00:00+02:00:3600",
        ["2019-06-22T21:00:00+02:00", "2019-06-23T00:00:00+02:00", 3600],
        {"start": "2019-06-22 21:00+02:00", "stop": "2019-06-23 00:00+02:00", "step": "PT1H"},
    ),
    "uniform": ("0:1", [0, 1], {"low": 0, "high": 1}),
    "quniform": ("0:1:0.1", [0, 1, 0.1], {"low": 0, "high": 1, "q": 0.1}),
    "loguniform": ("-3:0", [-3, 0], {"low": -3, "high": 0}),
    "qloguniform": ("0:3:0.5", [0, 3, 0.5], {"low": 0, "high": 3, "q": 0.5}),
    "normal": ("0:1", [0, 1], {"loc": 0, "scale": 1}),
    "qnormal": ("0:1:0.5", [0, 1, 0.5], {"loc": 0, "scale": 1, "q": 0.5}),
    "lognormal": ("0:1", [0, 1], {"loc": 0, "scale": 1}),
    "qlognormal": ("0:1:0.5", [0, 1, 0.5], {"loc": 0, "scale": 1, "q": 0.5}),
}
LISTED = {
    "choice": [0.25, 0.3, "relu"],
    "pchoice": [["relu", 0.1], ["sigmoid", 0.8]],
}
ALL_KINDS = {**{k: v[1] for k, v in FORMS.items()}, **LISTED}
DISTRIBUTIONS = {
    "pchoice",
    "uniform",
    "quniform",
    "loguniform",
    "qloguniform",
    "normal",
    "qnormal",
    "lognormal",
    "qlognormal",
}


def hp(kind, value):
    return parse_hyperparam({"kind": kind, "value": value}, "matrix.params.p")


def problems(kind, value):
    with pytest.raises(SpecError) as info:
        hp(kind, value)
    return {(p.location, p.message) for p in info.value.problems}


def test_there_are_sixteen_kinds():
    assert len(ALL_KINDS) == 16


@pytest.mark.parametrize("kind", sorted(FORMS))
def test_string_list_and_dict_forms_parse_to_the_same_model(kind):
    text, listed, mapping = FORMS[kind]
    parsed = [hp(kind, form) for form in (text, listed, mapping)]
    assert parsed[0] == parsed[1] == parsed[2]
    assert parsed[0].kind == kind


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_flags_follow_polyaxon(kind):
    param = hp(kind, ALL_KINDS[kind])
    assert param.is_distribution == (kind in DISTRIBUTIONS)
    assert param.is_discrete == (kind in {*LISTED, *FORMS} - DISTRIBUTIONS | {"pchoice"})
    assert param.is_uniform == (kind == "uniform")


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_dump_round_trips(kind):
    param = hp(kind, ALL_KINDS[kind])
    assert hp(kind, param.to_dict()["value"]) == param


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_search_space_is_plain_json_with_the_parameters(kind):
    space = hp(kind, ALL_KINDS[kind]).to_search_space()
    assert space["kind"] == kind
    assert json.loads(json.dumps(space)) == space
    assert len(space) > 1


def test_search_space_parameters():
    assert hp("choice", [1, 2]).to_search_space() == {"kind": "choice", "values": [1, 2]}
    assert hp("pchoice", [["a", 0.4], ["b", 0.6]]).to_search_space() == {
        "kind": "pchoice",
        "values": ["a", "b"],
        "probabilities": [0.4, 0.6],
    }
    assert hp("logspace", "0:3:4").to_search_space() == {
        "kind": "logspace",
        "start": 0,
        "stop": 3,
        "num": 4,
        "base": 10.0,
    }
    assert hp("qnormal", "0:1:0.5").to_search_space() == {
        "kind": "qnormal",
        "loc": 0,
        "scale": 1,
        "q": 0.5,
    }
    assert hp("datetimerange", FORMS["datetimerange"][1]).to_search_space()["step"] == 3600.0


# -- discrete values ---------------------------------------------------------------------------


def test_choice_values_are_as_written():
    assert hp("choice", [0.25, "relu", [1, 2]]).values() == [0.25, "relu", [1, 2]]


def test_pchoice_values_are_the_options():
    assert hp("pchoice", LISTED["pchoice"]).values() == ["relu", "sigmoid"]


def test_range_is_half_open_and_keeps_ints():
    values = hp("range", "1:10:2").values()
    assert values == [1, 3, 5, 7, 9]
    assert all(isinstance(v, int) for v in values)


def test_float_range_never_reaches_stop():
    # (1.3 - 1) / 0.1 == 3.0000000000000004: numpy.arange would yield a 4th value ~1.3
    assert hp("range", [1, 1.3, 0.1]).values() == pytest.approx([1.0, 1.1, 1.2])
    assert hp("range", "0:1:0.25").values() == [0, 0.25, 0.5, 0.75]


def test_linspace_includes_both_ends():
    assert hp("linspace", "0.001:0.1:5").values() == pytest.approx(
        [0.001, 0.02575, 0.0505, 0.07525, 0.1]
    )
    assert hp("linspace", "1:2:1").values() == [1.0]
    assert hp("linspace", "1:10:10").values() == [float(i) for i in range(1, 11)]


def test_logspace_defaults_to_base_10():
    assert hp("logspace", "0:3:4").values() == [1.0, 10.0, 100.0, 1000.0]
    assert hp("logspace", "0:3:4:2").values() == [1.0, 2.0, 4.0, 8.0]


def test_geomspace_is_a_geometric_progression():
    assert hp("geomspace", "1:1000:4").values() == [1.0, 10.0, 100.0, 1000.0]
    assert hp("geomspace", [-1000, -1, 4]).values() == pytest.approx([-1000, -100, -10, -1])


def test_daterange_steps_in_days_and_yields_iso_dates():
    assert hp("daterange", ["2019-06-22", "2019-06-28", 2]).values() == [
        "2019-06-22",
        "2019-06-24",
        "2019-06-26",
    ]


def test_datetimerange_steps_in_seconds_and_yields_iso_datetimes():
    assert hp("datetimerange", FORMS["datetimerange"][0]).values() == [
        "2019-06-22T21:00:00+02:00",
        "2019-06-22T22:00:00+02:00",
        "2019-06-22T23:00:00+02:00",
    ]
    naive = hp("datetimerange", "2019-06-22 21:00:2019-06-22 22:00:1800")
    assert naive.values() == ["2019-06-22T21:00:00", "2019-06-22T21:30:00"]
    assert isinstance(naive, DateTimeRange)


@given(
    start=st.integers(-1000, 1000),
    length=st.integers(1, 1000),
    step=st.integers(1, 50),
)
def test_range_size_and_value_at_match_python_range(start, length, step):
    param = Range.model_validate({"value": [start, start + length, step]})
    expected = list(range(start, start + length, step))
    assert param.size() == len(expected)
    assert param.values() == expected
    assert param.value_at(param.size() - 1) == expected[-1]


@given(num=st.integers(1, 200))
def test_linspace_has_num_values_within_bounds(num):
    values = LinSpace.model_validate({"value": [-2.5, 7, num]}).values()
    assert len(values) == num
    assert values[0] == -2.5
    assert all(-2.5 <= v <= 7 for v in values)
    assert values == sorted(values)


def test_quoted_numbers_convert_cleanly():
    assert hp("range", ["1", "10", "3"]) == hp("range", [1, 10, 3])
    assert hp("linspace", {"start": "0", "stop": "1", "num": "3.0"}).values() == [0, 0.5, 1]


# -- sampling --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
@given(seed=st.integers(0, 2**32))
def test_sampling_is_deterministic_per_seed(kind, seed):
    param = hp(kind, ALL_KINDS[kind])
    first = [param.sample(random.Random(seed)) for _ in range(3)]
    second = [param.sample(random.Random(seed)) for _ in range(3)]
    assert first == second


@pytest.mark.parametrize("kind", sorted(set(ALL_KINDS) - DISTRIBUTIONS | {"pchoice"}))
def test_discrete_samples_are_values(kind):
    param = hp(kind, ALL_KINDS[kind])
    rng = random.Random(7)
    assert all(param.sample(rng) in param.values() for _ in range(50))


def test_distribution_samples_respect_their_support():
    rng = random.Random(3)
    for _ in range(200):
        assert 0 <= hp("uniform", "0:1").sample(rng) < 1
        assert math.exp(-3) <= hp("loguniform", "-3:0").sample(rng) <= 1
        q = hp("quniform", "0:1:0.25").sample(rng)
        assert q in {0, 0.25, 0.5, 0.75, 1}
        assert hp("lognormal", "0:1").sample(rng) > 0
        qln = hp("qlognormal", "0:1:0.5").sample(rng)
        assert qln >= 0
        assert (qln / 0.5) == round(qln / 0.5)
        assert hp("qnormal", "0:1:0.5").sample(rng) % 0.5 == 0


def test_normal_samples_center_on_loc():
    rng = random.Random(11)
    draws = [hp("normal", "5:0.1").sample(rng) for _ in range(500)]
    assert sum(draws) / len(draws) == pytest.approx(5, abs=0.05)


@pytest.mark.parametrize("kind", sorted(DISTRIBUTIONS - {"pchoice"}))
def test_distributions_have_no_values(kind):
    param = hp(kind, ALL_KINDS[kind])
    with pytest.raises(TypeError, match="distribution"):
        param.values()
    with pytest.raises(TypeError):
        param.size()


def test_pchoice_draws_in_proportion_and_never_a_zero_probability():
    param = hp("pchoice", [["never", 0.0], ["rare", 0.1], ["often", 0.9]])
    rng = random.Random(0)
    draws = [param.sample(rng) for _ in range(2000)]
    assert "never" not in draws
    assert draws.count("rare") / len(draws) == pytest.approx(0.1, abs=0.03)


def test_pchoice_summing_below_one_samples_relative_weights():
    param = hp("pchoice", [["a", 0.1], ["b", 0.3]])
    rng = random.Random(0)
    draws = [param.sample(rng) for _ in range(4000)]
    assert draws.count("a") / len(draws) == pytest.approx(0.25, abs=0.03)


# -- pchoice rules -----------------------------------------------------------------------------


def test_pchoice_probabilities_may_sum_to_exactly_one():
    assert isinstance(hp("pchoice", [["a", 0.5], ["b", 0.5]]), PChoice)
    assert isinstance(hp("pchoice", [["a", 0.1], ["b", 0.2], ["c", 0.7]]), PChoice)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([["a", 0.7], ["b", 0.6]], "the probabilities must sum to at most 1, they sum to 1.3"),
        ([["a", 1.0]], "the probability of 'a' must be in [0, 1), got 1.0"),
        ([["a", -0.1], ["b", 0.5]], "the probability of 'a' must be in [0, 1), got -0.1"),
        ([["a", 0], ["b", 0]], "at least one probability must be greater than 0"),
        ([["a", 0.5, 1]], "expected [value, probability] pairs, got ['a', 0.5, 1]"),
        (["a"], "expected [value, probability] pairs, got 'a'"),
        ([["a", "lots"]], "expected a number, got 'lots'"),
    ],
)
def test_pchoice_rejections_are_located(value, message):
    assert problems("pchoice", value) == {("matrix.params.p.value", message)}


# -- rejections ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "value", "location", "message"),
    [
        ("choice", [], "matrix.params.p.value", "List should have at least 1 item"),
        ("range", "10:1:1", "matrix.params.p.value", "stop (1) must be greater than start (10)"),
        ("range", "1:10:0", "matrix.params.p.value", "step must be > 0, got 0"),
        ("range", "1:10", "matrix.params.p.value", "got 2 value(s)"),
        ("range", "1:ten:1", "matrix.params.p.value.stop", "expected a number, got 'ten'"),
        ("range", [1, True, 1], "matrix.params.p.value.stop", "got the boolean True"),
        ("linspace", "0:1:0", "matrix.params.p.value.num", "greater than or equal to 1"),
        ("linspace", "0:1:2.5", "matrix.params.p.value.num", "expected an integer, got '2.5'"),
        ("logspace", "0:1:3:-2", "matrix.params.p.value", "base must be > 0, got -2"),
        ("geomspace", "0:10:3", "matrix.params.p.value", "non-zero and of the same sign"),
        ("geomspace", "-1:10:3", "matrix.params.p.value", "non-zero and of the same sign"),
        ("daterange", ["2019-06-25", "2019-06-22", 1], "matrix.params.p.value", "greater"),
        ("daterange", ["2019-06-22", "2019-06-25", 0], "matrix.params.p.value.step", "equal to 1"),
        (
            "datetimerange",
            ["2019-06-22T00:00:00+02:00", "2019-06-23T00:00:00", 60],
            "matrix.params.p.value",
            "start and stop must both have a time zone, or neither",
        ),
        ("datetimerange", "2019-06-22 00:00 to tomorrow", "matrix.params.p.value", "got 1"),
        ("uniform", "1:0", "matrix.params.p.value", "high (0) must be greater than low (1)"),
        ("uniform", "0:1:5", "matrix.params.p.value", "expected `low:high`"),
        ("quniform", "0:1:0", "matrix.params.p.value", "q must be > 0, got 0"),
        ("normal", "0:0", "matrix.params.p.value", "scale must be > 0, got 0"),
        ("qlognormal", "0:1:-1", "matrix.params.p.value", "q must be > 0, got -1"),
        ("uniform", {"low": 0, "high": 1, "size": 3}, "matrix.params.p.value.size", "known"),
    ],
)
def test_rejections_name_the_location(kind, value, location, message):
    found = problems(kind, value)
    assert any(loc == location and message in msg for loc, msg in found), found


def test_unknown_kind_is_located_at_kind():
    found = problems("gaussian", "0:1")
    assert len(found) == 1
    ((location, message),) = found
    assert location == "matrix.params.p.kind"
    assert message.startswith("param.kind must be one of choice, pchoice, range")
    assert message.endswith("; got 'gaussian'")


def test_models_can_be_built_in_python():
    assert Choice(value=[1, 2]).kind == "choice"
    assert Uniform.model_validate({"value": "0:1"}).value.high == 1
    assert LogSpace.model_validate({"value": "0:2:3"}).values() == [1.0, 10.0, 100.0]
