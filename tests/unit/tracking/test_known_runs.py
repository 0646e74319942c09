"""Runs already found are remembered up to a limit, then forgotten all at once."""

from axonal_tracking.domain.runs import KnownRun, KnownRuns


def run(n: int) -> KnownRun:
    return KnownRun(f"{n:032x}", "acme/demo", ["gpu"])


def test_a_remembered_run_is_found_and_others_are_not():
    known = KnownRuns()
    known.remember(run(1))
    assert known.get(run(1).uuid) == run(1)
    assert known.get(run(2).uuid) is None


def test_past_the_limit_everything_is_forgotten_but_the_newest():
    known = KnownRuns(limit=3)
    for n in range(3):
        known.remember(run(n))
    assert len(known) == 3
    known.remember(run(3))
    assert len(known) == 1
    assert known.get(run(0).uuid) is None
    assert known.get(run(3).uuid) == run(3)
