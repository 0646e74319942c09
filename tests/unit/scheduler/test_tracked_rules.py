"""Rules of runs tracked from the SDK: tags merge in order, only they may be ended by hand."""

import pytest

from axonal_events import RunStatus
from axonal_scheduler.domain.statuses import can_transition
from axonal_scheduler.domain.tracked import ManagedRunError, check_can_end, merged_tags


def test_tags_are_added_in_order_each_once():
    assert merged_tags(["a", "b"], ["b", "c", "a", "d"]) == ["a", "b", "c", "d"]
    assert merged_tags([], ["x", "x"]) == ["x"]


def test_a_managed_run_cannot_be_ended_by_hand():
    check_can_end("u" * 32, managed=False)
    with pytest.raises(ManagedRunError, match=r"executed by an agent.*axonal ops stop"):
        check_can_end("u" * 32, managed=True)


@pytest.mark.parametrize("final", [RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.STOPPED])
def test_a_tracked_run_goes_created_running_then_final(final):
    assert can_transition(RunStatus.CREATED, RunStatus.RUNNING)
    assert can_transition(RunStatus.RUNNING, final)
    assert not can_transition(final, RunStatus.SUCCEEDED)
