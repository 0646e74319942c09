"""``axonal alerts create``: the condition as typed becomes the rule the api is sent."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import axonal.cli.api

from .conftest import FakeApi, invoke


@pytest.fixture
def sent(fake_api: FakeApi, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The bodies POSTed; each is answered as the api would, with the rule created."""
    bodies: list[dict[str, Any]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        rule = {**body, "id": "r1", "project": "acme/demo", "created_at": "2026-01-02T03:04:05Z"}
        return httpx.Response(201, json=rule)

    monkeypatch.setattr(axonal.cli.api, "transport", httpx.MockTransport(handle))
    return bodies


@pytest.mark.parametrize(
    ("args", "condition", "shown"),
    [
        (["loss", "gt", "5"], {"comparison": "gt", "threshold": 5.0}, "loss > 5"),
        (["loss", "is", "nan"], {"comparison": "is_nan"}, "loss is nan"),
        (["loss", "is", "INF"], {"comparison": "is_inf"}, "loss is inf"),
        (["loss", "is_nan"], {"comparison": "is_nan"}, "loss is nan"),
    ],
)
def test_a_condition_becomes_the_rule(sent, args, condition, shown):
    result = invoke("alerts", "create", *args)
    assert result.exit_code == 0, result.output
    assert len(sent) == 1
    assert {k: v for k, v in sent[0].items() if k in ("comparison", "threshold")} == condition
    assert shown in result.output


@pytest.mark.parametrize(
    ("args", "problem"), [(["loss", "is", "big"], "nan or inf"), (["loss", "gt", "x"], "number")]
)
def test_a_condition_that_is_no_rule_is_refused_before_any_request(sent, args, problem):
    result = invoke("alerts", "create", *args)
    assert result.exit_code == 2
    assert problem in result.output
    assert sent == []
