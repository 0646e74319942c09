"""Hyperband: Polyaxon's brackets in exact arithmetic, and the plan that plays them."""

import math

import pytest

from axonal_optimization.domain.hyperband import Finished, Hyperband, Rung, Stage, brackets

from .optimization_support import search_space


def table(max_iterations, eta, **options):
    return [
        [(rung.n_configs, rung.resource) for rung in bracket.rungs]
        for bracket in brackets(max_iterations, eta, **options)
    ]


def test_r81_eta3_is_polyaxons_schedule():
    assert table(81, 3) == [
        [(81, 1), (27, 3), (9, 9), (3, 27), (1, 81)],
        [(34, 3), (11, 9), (3, 27), (1, 81)],
        [(15, 9), (5, 27), (1, 81)],
        [(8, 27), (2, 81)],
        [(5, 81)],
    ]
    assert [bracket.s for bracket in brackets(81, 3)] == [4, 3, 2, 1, 0]
    assert [bracket.trials for bracket in brackets(81, 3)] == [121, 49, 21, 10, 5]


def test_r1000_eta10_has_four_brackets_where_floats_give_three():
    assert int(math.log(1000) / math.log(10)) == 2  # the float trap
    assert table(1000, 10.0) == [
        [(1000, 1), (100, 10), (10, 100), (1, 1000)],
        [(134, 10), (13, 100), (1, 1000)],
        [(20, 100), (2, 1000)],
        [(4, 1000)],
    ]


def polyaxon(max_iterations, eta):
    """Polyaxon's float formulas, with s_max computed exactly."""
    s_max = max(s for s in range(64) if eta**s <= max_iterations)
    big_b = (s_max + 1) * max_iterations
    out = []
    for s in range(s_max, -1, -1):
        n = math.ceil((big_b / max_iterations) * (eta**s) / (s + 1))
        r = max_iterations * eta ** (-s)
        out.append(
            [(n if k == 0 else int(n * eta ** (-(k - 1)) / eta), r * eta**k) for k in range(s + 1)]
        )
    return out


@pytest.mark.parametrize(
    ("max_iterations", "eta"), [(81, 3), (27, 3), (100, 3), (60, 4), (50, 2), (10, 2.5), (1, 3)]
)
def test_the_schedule_follows_polyaxons_formulas(max_iterations, eta):
    expected = polyaxon(max_iterations, eta)
    got = table(max_iterations, eta, resource_type="float")
    assert [[n for n, _ in rungs] for rungs in got] == [[n for n, _ in rungs] for rungs in expected]
    for rungs, reference in zip(got, expected, strict=True):
        assert [r for _, r in rungs] == pytest.approx([r for _, r in reference])


def test_resources_are_typed():
    assert [rung.resource for rung in brackets(100, 3, resource_type="int")[0].rungs] == [
        1,
        3,
        11,
        33,
        100,
    ]
    assert brackets(100, 3, resource_type="float")[0].rungs[0] == Rung(81, 100 / 81)
    assert isinstance(brackets(81, 3, resource_type="float")[0].rungs[0].resource, float)
    untyped = brackets(100, 3)[0].rungs
    assert [type(rung.resource) for rung in untyped] == [float, float, float, float, int]


@pytest.mark.parametrize(
    ("max_iterations", "eta", "message"),
    [
        (0, 3, "matrix.maxIterations must be >= 1"),
        (81, 1, "matrix.eta must be > 1"),
        (8.5, 2, "integer"),
    ],
)
def test_bad_settings_are_refused(max_iterations, eta, message):
    with pytest.raises(ValueError, match=message):
        brackets(max_iterations, eta)


# -- the plan -----------------------------------------------------------------------------------


def play(plan, score, fail=lambda bracket, rung, config: False):
    """Run the search to its end, one rung at a time; ``score(config, resource)``."""
    finished, stages, next_id = [], [], 0
    while (stage := plan.next_stage(finished)) is not None:
        stages.append(stage)
        if stage.rung == 0:
            configs = list(range(next_id, next_id + stage.new_configs))
            next_id += stage.new_configs
        else:
            configs = list(stage.promoted)
        for config in configs:
            failed = fail(stage.bracket, stage.rung, config)
            value = None if failed else score(config, stage.resource)
            finished.append(Finished(stage.bracket, stage.rung, config, value))
    assert plan.done(finished)
    return finished, stages


@pytest.mark.parametrize(("max_iterations", "eta", "total"), [(81, 3, 206), (1000, 10, 1285)])
def test_a_search_runs_every_rung_of_every_bracket(max_iterations, eta, total):
    plan = Hyperband(max_iterations, eta, maximize=True, resource_type="int")
    assert plan.total == total
    finished, stages = play(plan, lambda config, resource: (config * 7919) % 1000 + resource)
    assert len(finished) == total
    expected = [
        (b, k, rung.resource)
        for b, bracket in enumerate(plan.brackets)
        for k, rung in enumerate(bracket.rungs)
    ]
    assert [(s.bracket, s.rung, s.resource) for s in stages] == expected


@pytest.mark.parametrize("maximize", [True, False])
def test_the_best_of_a_rung_are_promoted(maximize):
    plan = Hyperband(81, 3, maximize=maximize)
    _, stages = play(plan, lambda config, resource: float(config))
    first = stages[1]
    assert first == Stage(bracket=0, rung=1, resource=3, promoted=first.promoted)
    assert first.promoted == (tuple(range(80, 53, -1)) if maximize else tuple(range(27)))
    assert stages[2].promoted == first.promoted[:9]


def test_a_promotion_waits_for_the_whole_rung():
    plan = Hyperband(9, 3, maximize=False)
    assert plan.next_stage([]) == Stage(0, 0, 1, new_configs=9)
    partial = [Finished(0, 0, c, float(c)) for c in range(8)]
    assert plan.next_stage(partial) == Stage(0, 0, 1, new_configs=9)
    rung = [*partial, Finished(0, 0, 8, 8.0)]
    assert plan.next_stage(rung) == Stage(0, 1, 3, promoted=(0, 1, 2))
    assert plan.next_stage([*rung, Finished(0, 1, 0, 0.5)]) == Stage(0, 1, 3, promoted=(0, 1, 2))


def test_failed_trials_are_never_promoted_and_an_empty_rung_ends_its_bracket():
    plan = Hyperband(9, 3, maximize=True)
    rung = [Finished(0, 0, c, None if c % 2 else float(c)) for c in range(9)]
    rung[4] = Finished(0, 0, 4, float("nan"))
    assert plan.next_stage(rung).promoted == (8, 6, 2)
    all_failed = [Finished(0, 0, c, None) for c in range(9)]
    assert plan.next_stage(all_failed) == Stage(1, 0, 3, new_configs=5)
    _, stages = play(plan, lambda config, resource: 1.0, fail=lambda b, k, config: k == 1)
    assert [(s.bracket, s.rung) for s in stages] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]


def test_a_plan_from_a_search_space():
    space = search_space("""
        kind: hyperband
        maxIterations: 81
        eta: 3
        resource: {name: epochs, type: float}
        metric: {name: loss, optimization: minimize}
        resume: true
        params:
          lr: {kind: uniform, value: "0:1"}
    """)
    plan = Hyperband.from_search_space(space)
    assert (plan.total, plan.maximize) == (206, False)
    assert plan.next_stage([]) == Stage(0, 0, 1.0, new_configs=81)
    assert isinstance(plan.next_stage([]).resource, float)


@pytest.mark.parametrize("missing", ["maxIterations", "eta", "resource", "metric"])
def test_a_search_space_without_what_hyperband_needs_is_refused(missing):
    space = {
        "kind": "hyperband",
        "maxIterations": 81,
        "eta": 3,
        "resource": {"name": "e"},
        "metric": {"name": "m"},
    }
    del space[missing]
    with pytest.raises(ValueError, match=rf"matrix\.{missing}: hyperband needs it"):
        Hyperband.from_search_space(space)
