"""The CLI reads each answer of the api into the model the api returns: a table from typed
rows, JSON from the model, and a clear error (not a traceback) for an answer that does not fit."""

from __future__ import annotations

import json

import pytest

from axonal.api_client import ApiError
from axonal.cli.api import parse
from axonal_events.metrics import AlertRuleList

from .conftest import FakeApi, invoke

RUN = "b" * 32
RULE = {
    "id": "r1",
    "project": "acme/demo",
    "metric": "loss",
    "comparison": "gt",
    "threshold": 5.0,
    "for_points": 3,
    "hysteresis": 0.5,
    "tags": ["nightly"],
    "created_at": "2026-01-02T03:04:05Z",
}
RUN_INFO = {
    "uuid": RUN,
    "owner": "acme",
    "project": "demo",
    "name": "train",
    "kind": "job",
    "status": "running",
    "created_at": "2026-01-02T03:04:05Z",
}


def test_a_listing_is_rendered_from_typed_rows(fake_api: FakeApi):
    fake_api.answer("GET", "/api/v1/acme/demo/alerts", {"rules": [RULE]})
    result = invoke("alerts", "ls")
    assert result.exit_code == 0, result.output
    assert "loss > 5" in result.output
    assert "nightly" in result.output


def test_json_is_the_parsed_model(fake_api: FakeApi):
    fake_api.answer("GET", f"/api/v1/acme/demo/runs/{RUN}", RUN_INFO)
    result = invoke("ops", "get", RUN, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["uuid"], doc["status"], doc["attempt"], doc["tags"]) == (RUN, "running", 1, [])
    table = invoke("ops", "get", RUN)
    assert "train" in table.output
    assert "running" in table.output


@pytest.mark.parametrize(
    ("args", "path", "body", "problem"),
    [
        (
            ["alerts", "ls"],
            "/api/v1/acme/demo/alerts",
            {"rules": [{"id": "r1", "metric": "loss"}]},
            "rules.0.comparison: Field required",
        ),
        (
            ["ops", "get", RUN],
            f"/api/v1/acme/demo/runs/{RUN}",
            {**RUN_INFO, "status": "sleeping"},
            "status: Input should be",
        ),
        (["ops", "ls"], "/api/v1/acme/demo/runs", {"runs": []}, "total: Field required"),
        (
            ["keys", "ls"],
            "/api/v1/projects/acme/demo/api-keys",
            ["not", "an", "object"],
            "the answer: Input should be",
        ),
    ],
)
def test_an_answer_that_does_not_fit_is_a_clear_error(fake_api: FakeApi, args, path, body, problem):
    fake_api.answer("GET", path, body)
    result = invoke(*args)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert f"Error: the api's answer to GET {path} is not a valid" in result.output
    assert problem in result.output
    assert "Hint: the CLI and the api may be of different versions" in result.output


def test_fields_a_newer_api_adds_are_ignored(fake_api: FakeApi):
    newer = {"rules": [{**RULE, "severity": "high"}], "next_page": None}
    fake_api.answer("GET", "/api/v1/acme/demo/alerts", newer)
    result = invoke("alerts", "ls", "--json")
    assert result.exit_code == 0, result.output
    [rule] = json.loads(result.stdout)["rules"]
    assert "severity" not in rule
    assert rule["metric"] == "loss"


def test_parse_names_every_problem_up_to_three():
    with pytest.raises(ApiError) as caught:
        parse(AlertRuleList, {"rules": [{}]}, "GET /alerts")
    message = caught.value.message
    assert message.startswith("the api's answer to GET /alerts is not a valid AlertRuleList: ")
    assert message.count("Field required") == 3
    assert "more)" in message


@pytest.mark.parametrize(
    ("status", "code", "hint"),
    [
        (404, "not_found", "check the uuid and the project"),
        (401, "unauthorized", "AXONAL_API_TOKEN"),
        (403, "forbidden", "your role does not allow this"),
        (409, "conflict", "it exists already"),
        (503, "unavailable", "axonal status"),
    ],
)
def test_error_hints_follow_the_status_not_the_message(fake_api: FakeApi, status, code, hint):
    body = {"code": code, "message": "something the api says in its own words"}
    fake_api.answer("GET", f"/api/v1/acme/demo/runs/{RUN}", body, status=status)
    result = invoke("ops", "get", RUN)
    assert result.exit_code == 1
    assert "something the api says in its own words" in result.output
    assert hint in result.output
