"""A fake api for the CLI's unit tests: canned answers by method and path, requests recorded."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from click.testing import Result
from typer.testing import CliRunner

import axonal.cli
import axonal.cli.api

PROJECT = "acme/demo"
WIDE = {"COLUMNS": "200", "NO_COLOR": "1"}


@dataclass
class FakeApi:
    """``answers[(method, path)] = (status, body)``; every request lands in ``seen``."""

    answers: dict[tuple[str, str], tuple[int, Any]] = field(default_factory=dict)
    seen: list[tuple[str, str]] = field(default_factory=list)

    def answer(self, method: str, path: str, body: Any, status: int = 200) -> None:
        self.answers[(method, path)] = (status, body)

    def handle(self, request: httpx.Request) -> httpx.Response:
        key = (request.method, request.url.path)
        self.seen.append(key)
        status, body = self.answers.get(key, (404, {"code": "not_found", "message": "no route"}))
        return httpx.Response(status, content=json.dumps(body).encode())


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch) -> FakeApi:
    fake = FakeApi()
    monkeypatch.setattr(axonal.cli.api, "transport", httpx.MockTransport(fake.handle))
    monkeypatch.setenv("AXONAL_API_URL", "http://api")
    monkeypatch.setenv("AXONAL_PROJECT", PROJECT)
    monkeypatch.delenv("AXONAL_API_TOKEN", raising=False)
    return fake


def invoke(*args: str, stdin: str | None = None) -> Result:
    """``axonal ARGS`` in this process (stdout and stderr in ``output``)."""
    return CliRunner().invoke(axonal.cli.app, list(args), env=WIDE, input=stdin)
