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
