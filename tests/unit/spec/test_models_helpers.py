"""The polyaxonfile models: helper fields (quoted integers, schedules, triggers, hooks, events,
templates, matrices and early stopping)."""

import datetime as dt
from typing import Any

import pytest

from axonal_spec.models import (
    CronSchedule,
    IntervalSchedule,
    Polyaxonfile,
)

from .models_support import parse, problems

# --- helpers -------------------------------------------------------------------------------


def test_quoted_integers_are_accepted_where_they_convert_cleanly():
    pf = parse(
        "termination: {maxRetries: '3', ttl: 22.0, timeout: ' 60 '}\n"
        "joins: [{query: 'kind:job', limit: '5', offset: 2}]\n"
        "cache: {ttl: '100'}\n"
    )
    assert pf.to_dict()["termination"] == {"maxRetries": 3, "ttl": 22, "timeout": 60}
    assert pf.to_dict()["joins"] == [{"query": "kind:job", "limit": 5, "offset": 2}]


@pytest.mark.parametrize(
    ("document", "location", "message"),
    [
        (
            {"termination": {"maxRetries": "3.5"}},
            "termination.maxRetries",
            "expected an integer, got '3.5'",
        ),
        ({"termination": {"ttl": True}}, "termination.ttl", "expected an integer, got True"),
        (
            {"joins": [{"query": "q", "limit": 6000}]},
            "joins[0].limit",
            "limit must be between 1 and 5000, got 6000",
        ),
        ({"joins": [{"limit": 1}]}, "joins[0].query", "missing required key 'query'"),
        (
            {"cache": {"sections": ["outputs"]}},
            "cache.sections[0]",
            "must be 'containers', 'init' or 'connections', got 'outputs'",
        ),
        ({"cost": "cheap"}, "cost", "expected a number, got 'cheap'"),
        ({"isApproved": "maybe"}, "isApproved", "expected a boolean, got 'maybe'"),
    ],
)
def test_bad_helper_values(document: dict[str, Any], location: str, message: str):
    assert problems(document) == [(location, message)]


def test_schedules():
    cron = parse("schedule: {kind: cron, cron: '0 0 * * MON', maxRuns: 3}").schedule
    assert isinstance(cron, CronSchedule)
    interval = Polyaxonfile.model_validate(
        {"schedule": {"kind": "interval", "frequency": dt.timedelta(minutes=2)}}
    ).schedule
    assert isinstance(interval, IntervalSchedule)
    assert interval.frequency == 120
    at = parse("schedule: {kind: datetime, startAt: 2030-01-01T10:00:00Z}").to_dict()
    assert at["schedule"] == {"kind": "datetime", "startAt": "2030-01-01T10:00:00Z"}
    assert problems({"schedule": {"kind": "weekly"}}) == [
        ("schedule.kind", "schedule.kind must be one of cron, interval, datetime; got 'weekly'")
    ]
    assert problems({"schedule": {"cron": "* * * * *"}}) == [
        ("schedule.kind", "schedule.kind must be one of cron, interval, datetime; kind is missing")
    ]
    assert problems({"schedule": {"kind": "cron"}}) == [
        ("schedule.cron", "missing required key 'cron'")
    ]


def test_a_schedule_is_checked_before_it_runs():
    zoned = parse("schedule: {kind: cron, cron: '*/5 * * * *', timezone: Europe/Paris}")
    assert zoned.schedule.timezone == "Europe/Paris"
    assert parse("schedule: {kind: interval, frequency: 5, catchup: all}").schedule.catchup == "all"
    assert problems(
        {"schedule": {"kind": "cron", "cron": "61 * * * *", "timezone": "Mars/Base"}}
    ) == [
        ("schedule.cron", "`61 * * * *` is not a cron expression: Bad minute"),
        ("schedule.timezone", "`Mars/Base` is not an IANA time zone"),
    ]
    [(where, _)] = problems({"schedule": {"kind": "interval", "frequency": 5, "catchup": "some"}})
    assert where == "schedule.catchup"


def test_trigger_policies_and_patch_strategies():
    assert parse("trigger: one_done").trigger == "one_done"
    assert parse("trigger: '{{ policy }}'").trigger == "{{ policy }}"
    assert problems({"trigger": "sometimes"}) == [
        (
            "trigger",
            "must be 'all_succeeded', 'all_failed', 'all_done', 'one_succeeded', 'one_failed' "
            "or 'one_done', got 'sometimes'",
        )
    ]
    assert problems({"patchStrategy": "merge"}) == [
        ("patchStrategy", "must be 'replace', 'isnull', 'post_merge' or 'pre_merge', got 'merge'")
    ]


@pytest.mark.parametrize(
    "trigger", ["succeeded", "failed", "stopped", "skipped", "upstream_failed", "done"]
)
def test_hook_triggers(trigger: str):
    assert parse(f"hooks: [{{hubRef: slack, trigger: {trigger}}}]").hooks


def test_a_hook_trigger_must_be_a_final_status():
    assert problems({"hooks": [{"hubRef": "slack", "trigger": "running"}]}) == [
        (
            "hooks[0].trigger",
            "must be 'succeeded', 'failed', 'stopped', 'skipped', 'upstream_failed' or 'done', "
            "got 'running'",
        )
    ]
    assert problems({"hooks": [{"trigger": "done"}]}) == [
        ("hooks[0].hubRef", "missing required key 'hubRef'")
    ]


def test_events():
    pf = parse("events: [{kinds: [run_status_running, run_new_artifacts], ref: ops.train}]")
    assert pf.events
    assert problems({"events": [{"kinds": ["run_status_fine"], "ref": "ops.a"}]}) == [
        ("events[0].kinds[0]", "unknown event kind 'run_status_fine' (see the spec, §4.3)")
    ]
    assert problems({"events": [{"kinds": ["run_status_done"], "ref": "dag"}]}) == [
        ("events[0].ref", "ref must be 'ops.<op-name>' or 'runs.<uuid>', got 'dag'")
    ]


@pytest.mark.parametrize(
    "field",
    ["cache", "termination", "plugins", "build", "hooks", "events", "joins", "dependencies"],
)
def test_xorref_fields_accept_a_template(field: str):
    pf = Polyaxonfile.model_validate({field: "{{ " + field + " }}"})
    assert getattr(pf, field) == "{{ " + field + " }}"


def test_a_plain_string_is_not_a_template():
    assert problems({"cache": "off"}) == [("cache", "expected a mapping, got 'off'")]


def test_matrix_and_early_stopping_errors_are_located():
    found = problems(
        {
            "kind": "component",
            "matrix": {"kind": "sweep"},
            "run": {"kind": "dag", "earlyStopping": [{"kind": "failure_early_stopping"}]},
        }
    )
    assert [location for location, _ in found] == ["matrix.kind", "run.earlyStopping[0].percent"]


def test_template_mount_and_presets():
    pf = parse(
        "template: {enabled: true, fields: [destination.value]}\n"
        "mount: ['./src:/code', {from: ./data, to: /data}]\n"
        "presets: 'a, b'\ntags: [x]\n"
    )
    assert pf.presets == ["a", "b"]
    assert pf.to_dict()["mount"] == ["./src:/code", {"from": "./data", "to": "/data"}]
