"""``axonal project retention set`` changes the kinds given and keeps the others; ``axonal
project rm`` asks the api to delete the project."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import axonal.cli.api

from .conftest import invoke

PATH = "/api/v1/projects/acme/demo/retention"


@pytest.fixture
def api(fake_api, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, Any]]:
    """An api holding the project's retention (the fake api's settings): what each request
    sent."""
    held: dict[str, Any] = {"traces": 30, "logs": 7}
    seen: list[tuple[str, str, Any]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        seen.append((request.method, request.url.path, body))
        if request.method == "PUT":
            held.clear()
            held.update({k: v for k, v in body.items() if v is not None})
        if request.method == "DELETE":
            accepted = {"scope": "project", "target": "p1", "request_id": "e1"}
            return httpx.Response(202, json=accepted)
        found = {"project_id": "p1", "owner": "acme", "name": "demo", "retention": held}
        return httpx.Response(200, json=found)

    monkeypatch.setattr(axonal.cli.api, "transport", httpx.MockTransport(handle))
    return seen


def test_set_changes_the_kinds_given_and_keeps_the_others(api):
    result = invoke("project", "retention", "set", "acme/demo", "--metrics", "90", "--logs", "0")
    assert result.exit_code == 0, result.output
    [(_, _, sent)] = [s for s in api if s[0] == "PUT"]
    assert {k: v for k, v in sent.items() if v is not None} == {"traces": 30, "metrics": 90}
    assert "90 days" in result.output
    assert "for ever" in result.output


def test_rm_deletes_the_project(api):
    result = invoke("project", "rm", "acme/demo", "--yes")
    assert result.exit_code == 0, result.output
    assert api == [("DELETE", "/api/v1/projects/acme/demo", None)]
    assert "deleting project acme/demo" in result.output


def test_quotas_set_changes_the_limits_given_and_keeps_the_others(fake_api, monkeypatch):
    held: dict[str, Any] = {"concurrent_runs": 4, "spans_per_second": 500}
    sent: list[Any] = []

    def handle(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/v1/projects/acme/demo/quotas"
        if request.method == "PUT":
            sent.append(json.loads(request.content))
            held.clear()
            held.update(sent[-1])
        found = {"project_id": "p1", "owner": "acme", "name": "demo", "quotas": held}
        return httpx.Response(200, json=found)

    monkeypatch.setattr(axonal.cli.api, "transport", httpx.MockTransport(handle))
    result = invoke(
        "project", "quotas", "set", "acme/demo", "--points-per-second", "2000",
        "--spans-per-second", "0",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    limits = {k: v for k, v in sent[0].items() if v is not None}
    assert limits == {"concurrent_runs": 4, "points_per_second": 2000}
    assert "2,000" in result.output
    assert "the platform's default" in result.output
