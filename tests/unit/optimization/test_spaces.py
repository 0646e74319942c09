"""Search-space params as Optuna distributions, decoded to job values and encoded back."""

import json
import math
import random

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from optuna.distributions import CategoricalDistribution as Cat
from optuna.distributions import FloatDistribution as Float
from optuna.distributions import IntDistribution as Int
from optuna.trial import create_trial

from axonal_optimization.domain import spaces
from axonal_spec.matrix import parse_matrix

from .optimization_support import search_space

ALL_KINDS = """
kind: tpe
numRuns: 10
metric: {name: loss, optimization: minimize}
params:
  choice: {kind: choice, value: [1, 1.0, true, {a: [1, 2]}, [1, 2], null, "1"]}
  pchoice: {kind: pchoice, value: [[a, 0.5], [b, 0], [c, 0.5]]}
  range: {kind: range, value: "1:10:2"}
  frange: {kind: range, value: "0.1:1:0.3"}
  linspace: {kind: linspace, value: "0:1:5"}
  logspace: {kind: logspace, value: "0:3:4"}
  logspace2: {kind: logspace, value: "0:3:4:2"}
  geomspace: {kind: geomspace, value: "1:1000:4"}
  daterange: {kind: daterange, value: "2019-06-24:2019-07-10:3"}
  datetimerange:
    kind: datetimerange
    value: {start: "2019-06-24T10:00:00+02:00", stop: "2019-06-24T12:00:00+02:00", step: 1800}
  uniform: {kind: uniform, value: "-5:10"}
  quniform: {kind: quniform, value: "0:1:0.1"}
  loguniform: {kind: loguniform, value: "-5:-1"}
  lr: {kind: qloguniform, value: "-5:-1:0.01"}
  normal: {kind: normal, value: "1:2"}
  qnormal: {kind: qnormal, value: "0:1:0.5"}
  lognormal: {kind: lognormal, value: "0:1"}
  qlognormal: {kind: qlognormal, value: "0:1:0.5"}
"""

SPACE = search_space(ALL_KINDS)
PARAMS = SPACE["params"]
DISTRIBUTIONS = spaces.distributions(PARAMS)
SPEC_PARAMS = parse_matrix(yaml.safe_load(ALL_KINDS)).params  # type: ignore[union-attr]


def key(value):
    """Tells 1, 1.0 and True apart."""
    return json.dumps(value, sort_keys=True)


def test_every_kind_has_its_distribution():
    assert spaces.distributions(PARAMS) == {
        "choice": Cat((0, 1, 2, 3, 4, 5, 6)),
        "pchoice": Cat((0, 2)),
        "range": Int(1, 9, step=2),
        "frange": Int(0, 2),
        "linspace": Int(0, 4),
        "logspace": Int(0, 3),
        "logspace2": Int(0, 3),
        "geomspace": Int(0, 3),
        "daterange": Int(0, 5),
        "datetimerange": Int(0, 3),
        "uniform": Float(-5, 10),
        "quniform": Int(0, 10),
        "loguniform": Float(math.exp(-5), math.exp(-1), log=True),
        "lr": Float(math.exp(-5), math.exp(-1), log=True),
        "normal": Float(1 - 6, 1 + 6),
        "qnormal": Int(-6, 6),
        "lognormal": Float(math.exp(-3), math.exp(3), log=True),
        "qlognormal": Float(math.exp(-3), math.exp(3), log=True),
    }


def _all(distribution):
    if isinstance(distribution, Cat):
        return list(distribution.choices)
    return list(range(distribution.low, distribution.high + 1, distribution.step))


DISCRETE = ["choice", "range", "frange", "linspace", "logspace", "logspace2", "geomspace"]


@pytest.mark.parametrize("name", [*DISCRETE, "daterange", "datetimerange"])
def test_discrete_values_are_the_spec_librarys(name):
    decoded = [
        spaces.decode({name: PARAMS[name]}, {name: x})[name] for x in _all(DISTRIBUTIONS[name])
    ]
    assert [key(v) for v in decoded] == [key(v) for v in SPEC_PARAMS[name].values()]


def test_choices_keep_their_exact_values_and_types():
    decoded = [
        spaces.decode({"choice": PARAMS["choice"]}, {"choice": i})["choice"] for i in range(7)
    ]
    assert [key(v) for v in decoded] == [
        key(v) for v in [1, 1.0, True, {"a": [1, 2]}, [1, 2], None, "1"]
    ]
    assert [spaces.encode({"choice": PARAMS["choice"]}, {"choice": v}) for v in decoded] == [
        {"choice": i} for i in range(7)
    ]


def test_pchoice_never_suggests_a_value_of_probability_zero():
    assert spaces.decode({"p": PARAMS["pchoice"]}, {"p": 2}) == {"p": "c"}
    with pytest.raises(ValueError, match=r"params\.p: 'b' is not one of the values"):
        spaces.encode({"p": PARAMS["pchoice"]}, {"p": "b"})


@pytest.mark.parametrize(
    "name", ["uniform", "quniform", "loguniform", "lr", "qnormal", "qlognormal"]
)
def test_the_spec_librarys_draws_are_in_the_space(name):
    rng, truncated = random.Random(7), 0
    for _ in range(300):
        value = SPEC_PARAMS[name].sample(rng)
        try:
            encoded = spaces.encode({name: PARAMS[name]}, {name: value})
        except ValueError:
            truncated += 1  # a normal's tail beyond 3 sigma (0.3 % of draws)
            continue
        assert spaces.decode({name: PARAMS[name]}, encoded) == {name: value}
    assert truncated <= (5 if "normal" in name else 0)


def test_decoded_values_are_what_the_job_receives():
    trial = {
        "choice": 3, "pchoice": 0, "range": 5, "frange": 2, "linspace": 1, "logspace": 2,
        "logspace2": 3, "geomspace": 1, "daterange": 1, "datetimerange": 3, "uniform": 2.5,
        "quniform": 3, "loguniform": 0.1, "lr": 0.3377, "normal": 0.25, "qnormal": -3,
        "lognormal": 2.0, "qlognormal": 0.3,
    }  # fmt: skip
    values = spaces.decode(PARAMS, trial)
    assert values == {
        "choice": {"a": [1, 2]}, "pchoice": "a", "range": 5, "frange": 0.1 + 2 * 0.3,
        "linspace": 0.25, "logspace": 100.0, "logspace2": 8.0, "geomspace": 10.0,
        "daterange": "2019-06-27", "datetimerange": "2019-06-24T11:30:00+02:00",
        "uniform": 2.5, "quniform": 0.30000000000000004, "loguniform": 0.1, "lr": 0.34,
        "normal": 0.25, "qnormal": -1.5, "lognormal": 2.0, "qlognormal": 0.5,
    }  # fmt: skip
    assert json.loads(json.dumps(values)) == values
    assert type(values["range"]) is int


def test_encode_rebuilds_a_trial_optuna_accepts():
    values = spaces.decode(
        PARAMS,
        {
            name: _all(d)[0] if not isinstance(d, Float) else d.low
            for name, d in DISTRIBUTIONS.items()
        },
    )
    encoded = spaces.encode(PARAMS, values)
    trial = create_trial(params=encoded, distributions=DISTRIBUTIONS, value=1.0)
    assert spaces.decode(PARAMS, trial.params) == values


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("choice", 2, "2 is not one of the values"),
        ("range", 4, "4 is not one of the 5 values"),
        ("range", True, "True is not one of the 5 values"),
        ("linspace", 0.3, "0.3 is not one of the 5 values"),
        ("daterange", "2019-06-25", "'2019-06-25' is not one of the 6 values"),
        ("daterange", "June", "'June' is not one of the 6 values"),
        ("uniform", 11, r"11 is not within \[-5, 10\]"),
        ("uniform", "1", "'1' is not a number"),
        ("quniform", 0.35, "0.35 is not a multiple of 0.1 within the bounds"),
        ("quniform", 1.1, "1.1 is not a multiple of 0.1 within the bounds"),
        ("lr", 0.005, "0.005 is not a multiple of 0.01"),
        ("lr", 0.5, "0.5 is not a multiple of 0.01 within the bounds"),
        ("normal", float("nan"), "nan is not a number"),
    ],
)
def test_encode_names_the_param_whose_value_is_not_in_its_space(name, value, message):
    with pytest.raises(ValueError, match=rf"^params\.{name}: {message}"):
        spaces.encode({name: PARAMS[name]}, {name: value})


def test_encode_needs_every_value():
    with pytest.raises(ValueError, match=r"params\.uniform: no value"):
        spaces.encode({"uniform": PARAMS["uniform"]}, {"normal": 1.0})


def test_an_unknown_kind_is_named():
    with pytest.raises(ValueError, match=r"params\.x: cannot search .*unknown kind `beta`"):
        spaces.distributions({"x": {"kind": "beta", "a": 1}})


def test_approximations_name_each_approximated_param():
    assert spaces.approximations(SPACE) == [
        "params.pchoice: pchoice is searched as a choice: its probabilities are not used",
        "params.logspace: logspace is searched by the index of its 4 values (no log grid)",
        "params.logspace2: logspace is searched by the index of its 4 values (no log grid)",
        "params.geomspace: geomspace is searched by the index of its 4 values (no log grid)",
        "params.daterange: daterange is searched by the index of its 6 values",
        "params.datetimerange: datetimerange is searched by the index of its 4 values",
        "params.lr: qloguniform is sampled log-uniform then quantized to 0.01",
        "params.normal: normal is searched uniformly within loc ± 3·scale = [-5, 7], "
        "without its prior",
        "params.qnormal: qnormal is searched uniformly within loc ± 3·scale = [-3, 3], "
        "quantized to 0.5, without its prior",
        "params.lognormal: lognormal is searched log-uniformly within exp(loc ± 3·scale) = "
        "[0.0497871, 20.0855], without its prior",
        "params.qlognormal: qlognormal is searched log-uniformly within exp(loc ± 3·scale) = "
        "[0.0497871, 20.0855], quantized to 0.5, without its prior",
    ]
    exact = ["choice", "range", "frange", "linspace", "uniform", "quniform", "loguniform"]
    assert spaces.approximations({"params": {name: PARAMS[name] for name in exact}}) == []


# -- round trips --------------------------------------------------------------------------------


def _internal(distribution):
    """A strategy over a distribution's values (what a sampler may suggest)."""
    if isinstance(distribution, Cat):
        return st.sampled_from(distribution.choices)
    if isinstance(distribution, Int):
        return st.integers(0, (distribution.high - distribution.low) // distribution.step).map(
            lambda k: distribution.low + k * distribution.step
        )
    return st.floats(distribution.low, distribution.high)


TRIALS = st.fixed_dictionaries({name: _internal(d) for name, d in DISTRIBUTIONS.items()})


@settings(max_examples=200, deadline=None)
@given(TRIALS)
def test_decode_then_encode_round_trips_every_kind(trial):
    values = spaces.decode(PARAMS, trial)
    stored = json.loads(json.dumps(values))  # as read back from the database
    encoded = spaces.encode(PARAMS, stored)
    assert key(spaces.decode(PARAMS, encoded)) == key(values)
    create_trial(params=encoded, distributions=DISTRIBUTIONS, value=0.0)  # inside the space
    exact = {n: v for n, v in trial.items() if n not in ("lr", "qlognormal")}
    assert {n: encoded[n] for n in exact} == exact  # only the quantized log kinds lose x


NUMBERS = st.floats(-1e3, 1e3, allow_nan=False).map(lambda x: round(x, 3))
STEPS = st.sampled_from([0.001, 0.01, 0.1, 0.25, 0.3, 0.7, 1, 2.5, 3])


@st.composite
def spaced_params(draw):
    kind = draw(
        st.sampled_from(
            ["range", "linspace", "logspace", "geomspace", "quniform", "qloguniform", "qnormal"]
        )
    )
    start = draw(NUMBERS)
    if kind == "range":
        step = draw(STEPS)
        stop = start + step * draw(st.integers(1, 50)) + draw(st.sampled_from([0, step / 2]))
        return {"kind": kind, "start": start, "stop": stop, "step": step}
    if kind in ("linspace", "logspace", "geomspace"):
        num = draw(st.integers(1, 40))
        if kind == "logspace":
            start, stop = start / 200, start / 200 + draw(st.floats(0.1, 4))
            return {
                "kind": kind,
                "start": start,
                "stop": stop,
                "num": num,
                "base": draw(st.sampled_from([10.0, 2.0, math.e])),
            }
        if kind == "geomspace":
            start = abs(start) + 0.001
        return {"kind": kind, "start": start, "stop": start + draw(st.floats(0.5, 1e4)), "num": num}
    q = draw(STEPS)
    if kind == "qloguniform":
        low = draw(st.floats(-5, 3))
        return {"kind": kind, "low": low, "high": low + draw(st.floats(0.5, 4)), "q": q}
    if kind == "qnormal":
        return {"kind": kind, "loc": start, "scale": draw(st.floats(0.01, 100)), "q": q}
    return {"kind": kind, "low": start, "high": start + draw(st.floats(0.1, 100)), "q": q}


@settings(max_examples=300, deadline=None)
@given(spaced_params(), st.data())
def test_any_spaced_or_quantized_space_round_trips(param, data):
    params = {"x": param}
    distribution = spaces.distributions(params)["x"]
    value = spaces.decode(params, {"x": data.draw(_internal(distribution))})
    encoded = spaces.encode(params, json.loads(json.dumps(value)))
    assert spaces.decode(params, encoded) == value
    create_trial(params=encoded, distributions={"x": distribution}, value=0.0)
