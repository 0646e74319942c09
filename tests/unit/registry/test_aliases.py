"""Alias rules: one holder per alias, protected aliases wait for approval, archived versions
take none."""

import pytest

from axonal_registry.domain.aliases import (
    AliasError,
    Move,
    NeedsApproval,
    check_aliases,
    plan_move,
    plan_promotion,
)


def test_an_alias_moves_from_its_holder():
    plan = plan_promotion({"production": 1}, [], alias="production", version=2, archived=False)
    assert plan == Move("production", 2, previous=1)


def test_a_new_alias_has_no_previous_holder():
    plan = plan_promotion({}, [], alias="champion", version=3, archived=False)
    assert plan == Move("champion", 3, previous=None)


def test_a_protected_alias_waits_for_approval():
    plan = plan_promotion(
        {"production": 1}, ["production"], alias="production", version=2, archived=False
    )
    assert plan == NeedsApproval("production", 2)


def test_an_approved_move_of_a_protected_alias_moves():
    assert plan_move({"production": 1}, alias="production", version=2, archived=False) == Move(
        "production", 2, previous=1
    )


def test_a_protected_alias_already_on_the_version_moves_nowhere():
    plan = plan_promotion(
        {"production": 2}, ["production"], alias="production", version=2, archived=False
    )
    assert plan == Move("production", 2, previous=2)


def test_an_archived_version_takes_no_alias():
    with pytest.raises(AliasError, match="version: 4 is archived"):
        plan_promotion({}, [], alias="staging", version=4, archived=True)


@pytest.mark.parametrize(
    ("alias", "problem"),
    [
        ("archived", "alias: 'archived' is a state"),
        ("Prod", "alias: 'Prod' must be 1 to 50 lowercase"),
        ("", "alias: '' must be"),
        ("9lives", "starting with a letter"),
    ],
)
def test_unusable_aliases_are_named(alias, problem):
    with pytest.raises(AliasError, match=problem):
        plan_promotion({}, [], alias=alias, version=1, archived=False)


def test_protected_aliases_are_checked_sorted_and_unique():
    assert check_aliases(["production", "staging", "production"]) == ["production", "staging"]
    with pytest.raises(AliasError, match="'archived' is a state"):
        check_aliases(["archived"])
