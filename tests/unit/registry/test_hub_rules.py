"""Component hub rules: what may be pushed, what a push does to a tag, what a hubRef names."""

import pytest

from axonal_events.hub import PushComponent
from axonal_registry.domain.hub import (
    HubRuleError,
    PushOutcome,
    ReadOnlyError,
    Target,
    push_outcome,
    target_of,
    unknown_ref,
    version_to_push,
)

COMPONENT = """\
kind: component
name: trainer
description: trains
inputs: [{name: lr, type: float, value: 0.1, isOptional: true}]
outputs: [{name: loss, type: float, isOptional: true}]
run: {kind: job, container: {image: python:3.12}}
"""


def request(content=COMPONENT, owner="acme", tag="v1"):
    return PushComponent(owner=owner, name="trainer", tag=tag, content=content)


def test_a_component_version_keeps_its_content_and_reads_its_io():
    version = version_to_push(request())
    assert (version.description, version.inputs, version.outputs) == ("trains", ("lr",), ("loss",))
    assert version.content == COMPONENT
    assert len(version.digest) == 64


@pytest.mark.parametrize(
    ("content", "field", "problem"),
    [
        (COMPONENT.replace("kind: job", "kind: jobb"), "content", "run"),
        ("kind: component\nname: [\n", "content", "YAML"),
        ("kind: operation\nhubRef: tensorboard\n", "content.kind", "kind: component"),
    ],
)
def test_a_malformed_component_names_the_field_and_problem(content, field, problem):
    with pytest.raises(HubRuleError) as caught:
        version_to_push(request(content))
    assert caught.value.field == field
    assert problem in str(caught.value)


def test_latest_is_never_pushed_and_builtins_are_read_only():
    with pytest.raises(HubRuleError, match="latest"):
        version_to_push(request(tag="latest"))
    with pytest.raises(ReadOnlyError, match="read-only"):
        version_to_push(request(owner="axonal"))


@pytest.mark.parametrize(
    ("stored", "force", "outcome"),
    [
        (None, False, PushOutcome.CREATED),
        ("abc", False, PushOutcome.UNCHANGED),
        ("abc", True, PushOutcome.UNCHANGED),
        ("old", False, PushOutcome.CONFLICT),
        ("old", True, PushOutcome.REPLACED),
    ],
)
def test_what_a_push_does_to_a_tag(stored, force, outcome):
    assert push_outcome(stored, "abc", force=force) is outcome


@pytest.mark.parametrize(
    ("ref", "target"),
    [
        ("acme/trainer:v2", Target("acme", "trainer", "v2")),
        ("acme/trainer", Target("acme", "trainer", None)),
        ("acme/trainer:latest", Target("acme", "trainer", None)),
        ("tensorboard:multi-runs", Target(None, "tensorboard", "multi-runs")),
    ],
)
def test_what_a_reference_names(ref, target):
    assert target_of(ref) == target


def test_a_malformed_reference_is_located_at_ref():
    with pytest.raises(HubRuleError) as caught:
        target_of("a/b/c")
    assert caught.value.field == "ref"


def test_an_unknown_reference_lists_tags_or_close_names():
    owned = {"trainer": ["v1", "v2"]}
    builtins = {"tensorboard": ["latest"]}
    no_tag = unknown_ref("acme/trainer:v3", target_of("acme/trainer:v3"), owned, builtins)
    assert no_tag == "hub component `acme/trainer:v3` has no tag `v3`: its tags are v1, v2"
    typo = unknown_ref("acme/trainr", target_of("acme/trainr"), owned, builtins)
    assert "did you mean `trainer`?" in typo
    assert "`acme`" in typo
    bare = unknown_ref("zzz", target_of("zzz"), {}, builtins)
    assert bare.endswith("a pushed component is named owner/name[:tag]")
