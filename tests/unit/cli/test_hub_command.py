"""``axonal hub``: what a push names and sends, what pull prints; ``axonal check`` without a
reachable platform resolves the built-ins and says why a pushed component is unknown."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

import axonal.cli.api
from axonal.cli.hub import component_ref
from axonal.cli.hub_refs import PlatformHub
from axonal_spec import SpecError

from .conftest import FakeApi, invoke

COMPONENT = "kind: component\nname: trainer\nrun: {kind: job, container: {image: python}}\n"
PUSHED = {
    "owner": "acme",
    "name": "trainer",
    "tag": "v2",
    "builtin": False,
    "digest": "d" * 64,
    "inputs": [],
    "outputs": [],
    "latest": True,
    "pushed_at": "2026-01-02T03:04:05Z",
    "content": COMPONENT,
    "created": True,
}


@pytest.mark.parametrize(
    ("given", "tag", "expected"),
    [
        ("acme/trainer:v2", None, ("acme", "trainer", "v2")),
        ("other:v3", None, ("team", "other", "v3")),
        (None, "v1", ("team", "trainer", "v1")),
        ("trainer", "v4", ("team", "trainer", "v4")),
    ],
)
def test_the_pushed_ref_comes_from_the_option_then_the_file(given, tag, expected):
    assert component_ref({"name": "trainer"}, given, "team", tag) == expected


@pytest.mark.parametrize(
    ("document", "given", "problem"),
    [({"name": "trainer"}, None, "no tag for trainer"), ({}, None, "has no name")],
)
def test_a_push_without_name_or_tag_says_what_to_give(document, given, problem):
    with pytest.raises(ValueError, match=problem):
        component_ref(document, given, "team", None)


def test_push_sends_the_file_under_the_project_owner(
    fake_api: FakeApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    sent = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(201, json=PUSHED)

    monkeypatch.setattr(axonal.cli.api, "transport", httpx.MockTransport(handle))
    component = tmp_path / "trainer.yaml"
    component.write_text(COMPONENT)
    result = invoke("hub", "push", "-f", str(component), "--tag", "v2", "--force")
    assert result.exit_code == 0, result.output
    assert "acme/trainer:v2 pushed" in result.output
    assert sent == [
        {"owner": "acme", "name": "trainer", "tag": "v2", "content": COMPONENT, "force": True}
    ]


def test_push_without_a_tag_fails_with_a_hint(fake_api: FakeApi, tmp_path: Path):
    component = tmp_path / "trainer.yaml"
    component.write_text(COMPONENT)
    result = invoke("hub", "push", "-f", str(component))
    assert result.exit_code == 1
    assert "no tag for trainer" in result.output
    assert fake_api.seen == []


def test_pull_prints_the_yaml_and_ls_shows_the_versions(fake_api: FakeApi):
    fake_api.answer("GET", "/api/v1/hub/resolve", PUSHED)
    pulled = invoke("hub", "pull", "acme/trainer:v2")
    assert pulled.output == COMPONENT

    listed = {key: value for key, value in PUSHED.items() if key not in ("content", "created")}
    fake_api.answer("GET", "/api/v1/hub/components", {"components": [listed]})
    shown = invoke("hub", "ls")
    assert "acme/trainer" in shown.output
    assert "latest" in shown.output


def test_without_a_platform_builtins_resolve_and_pushed_ones_are_unknown():
    hub = PlatformHub("http://127.0.0.1:9", timeout=1.0)
    assert hub.resolve("tensorboard")["name"] == "tensorboard"
    with pytest.raises(SpecError) as caught:
        hub.resolve("acme/trainer:v2")
    [problem] = caught.value.problems
    assert problem.location == "hubRef"
    assert "unknown hub component `trainer`" in problem.message
    assert "pushed components are unknown here (cannot reach the api" in problem.message
