"""Automation rules: validation, matching an event, params read from it."""

import json

import pytest
from pydantic import ValidationError

from axonal_events.automations import AutomationConfig
from axonal_scheduler.domain.automations import (
    RuleError,
    firing_run_uuid,
    matches,
    parse_event,
    start_params,
)

RETRAIN = AutomationConfig(
    name="retrain",
    event="dataset.updated",
    external=True,
    source="/warehouse",
    where={"data.kind": "images"},
    hub_ref="train",
    params={"epochs": 3},
    params_from={"dataset": "data.uri"},
)


def event(event_type="dataset.updated", source="/warehouse", **data):
    doc = {"specversion": "1.0", "id": "e1", "type": event_type, "source": source,
           "project": "acme/demo", "data": data}  # fmt: skip
    return parse_event(json.dumps(doc).encode())


def test_an_external_rule_matches_type_source_and_where_values():
    assert matches(RETRAIN, event(uri="s3://d/1", kind="images"))
    assert not matches(RETRAIN, event(uri="s3://d/1", kind="text"))
    assert not matches(RETRAIN, event(uri="s3://d/1"))  # no data.kind at all
    assert not matches(RETRAIN, event(source="/elsewhere", kind="images"))
    assert not matches(RETRAIN, event("dataset.deleted", kind="images"))


def test_platform_rules_see_platform_events_only_and_external_rules_external_only():
    restart = AutomationConfig(name="again", action="restart", event="run.failed")
    platform = event("axonal.run.failed", source="/axonal/scheduler", run_uuid="r")
    assert (platform.type, platform.external) == ("run.failed", False)
    assert matches(restart, platform)
    assert not matches(restart, event("run.failed", run_uuid="r"))  # posted from outside
    disabled = restart.model_copy(update={"enabled": False})
    assert not matches(disabled, platform)


def test_params_come_from_the_rule_and_the_event():
    found = start_params(RETRAIN, event(uri="s3://d/1", kind="images"))
    assert found == {"epochs": 3, "dataset": "s3://d/1"}
    with pytest.raises(RuleError, match=r"param dataset: the event has no data\.uri"):
        start_params(RETRAIN, event(kind="images"))


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"event": "run.finished", "hub_ref": "x"}, "matches no platform event type"),
        ({"event": "run.*.x", "hub_ref": "x"}, "matches no platform event type"),
        ({"event": "axonal.run.failed", "external": True, "hub_ref": "x"}, "never start with"),
        ({"event": "run.failed", "source": "/x", "hub_ref": "x"}, "external events only"),
        ({"event": "run.failed"}, "exactly one of hub_ref and polyaxonfile"),
        ({"event": "run.failed", "hub_ref": "x", "polyaxonfile": "y"}, "exactly one"),
        ({"action": "restart", "event": "run.succeeded"}, "a restart rule watches run.failed"),
        ({"action": "restart", "hub_ref": "x"}, "starts nothing new"),
        ({"hub_ref": "x", "params_from": {"a": "body.x"}}, "is not an event path"),
        ({"hub_ref": "x", "where": {"data..x": 1}}, "is not an event path"),
    ],
)
def test_bad_rules_are_refused_with_the_reason(fields, problem):
    with pytest.raises(ValidationError, match=problem):
        AutomationConfig(name="bad", **fields)


def test_what_is_not_a_cloudevent_is_refused():
    with pytest.raises(ValueError, match="not JSON"):
        parse_event(b"{oops")
    with pytest.raises(ValueError, match="no id, source"):
        parse_event(b'{"type": "x"}')


def test_a_redelivered_event_starts_the_same_run():
    assert firing_run_uuid("r1", "e1") == firing_run_uuid("r1", "e1") != firing_run_uuid("r2", "e1")
