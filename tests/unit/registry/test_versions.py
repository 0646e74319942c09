"""Model versions are content-addressed: numbered per model, never two for the same bytes."""

import pytest

from axonal_registry.domain.aliases import AliasError
from axonal_registry.domain.versions import DuplicateVersion, next_version, parse_ref

A, B, C = "a" * 64, "b" * 64, "c" * 64


def test_the_first_version_is_one():
    assert next_version("churn", {}, A) == 1


def test_new_bytes_take_the_next_number():
    assert next_version("churn", {A: 1, B: 2}, C) == 3


def test_the_same_bytes_are_never_a_second_version():
    with pytest.raises(DuplicateVersion, match=r"sha256: model 'churn' already has") as raised:
        next_version("churn", {A: 1, B: 2}, B)
    assert raised.value.version == 2


@pytest.mark.parametrize(("ref", "expected"), [("3", 3), ("v12", 12), ("production", "production")])
def test_a_ref_is_a_number_or_an_alias(ref, expected):
    assert parse_ref(ref) == expected


@pytest.mark.parametrize(("ref", "problem"), [("0", "start at 1"), ("Prod!", "lowercase")])
def test_bad_refs_are_named(ref, problem):
    with pytest.raises(AliasError, match=problem):
        parse_ref(ref)
