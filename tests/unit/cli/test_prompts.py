"""``axonal prompts``: list, show, create and label prompts over the api."""

from __future__ import annotations

import json

from .conftest import FakeApi, invoke

BASE = "/api/v1/acme/demo"
VERSION = {
    "id": "9a3c",
    "project_id": "p1",
    "name": "support/greet",
    "version": 2,
    "type": "chat",
    "prompt": [
        {"role": "system", "content": "You help {{user}}."},
        {"type": "placeholder", "name": "history"},
    ],
    "labels": ["latest", "production"],
    "commit_message": "warmer",
    "created_at": "2026-01-01T00:00:00Z",
    "updated_at": "2026-01-01T00:00:00Z",
}


def test_ls_shows_each_prompt_with_its_versions_and_labels(fake_api: FakeApi):
    meta = {
        "name": "support/greet",
        "type": "text",
        "versions": [1, 2, 3, 4],
        "labels": ["latest", "production"],
        "tags": ["support"],
        "last_updated_at": "2026-01-01T10:00:00Z",
    }
    page = {"data": [meta], "meta": {"page": 1, "limit": 100, "total_items": 1, "total_pages": 1}}
    fake_api.answer("GET", f"{BASE}/prompts", page)
    listed = invoke("prompts", "ls")
    assert listed.exit_code == 0, listed.output
    assert "support/greet" in listed.output
    assert "1…4 (4)" in listed.output
    assert "production" in listed.output


def test_get_shows_a_chat_prompt_and_its_placeholder(fake_api: FakeApi):
    fake_api.answer("GET", f"{BASE}/prompts/support/greet", VERSION)
    shown = invoke("prompts", "get", "support/greet", "--label", "production")
    assert shown.exit_code == 0, shown.output
    assert "support/greet v2" in shown.output
    assert "system: You help {{user}}." in shown.output
    assert "{{history}} (placeholder)" in shown.output
    missing = invoke("prompts", "get", "nope")
    assert missing.exit_code == 1
    assert "axonal prompts ls" in missing.output
    both = invoke("prompts", "get", "support/greet", "--label", "x", "--version", "1")
    assert both.exit_code == 2
    assert "give --version or --label, not both" in both.output


def test_create_reads_a_chat_prompt_from_a_file(fake_api: FakeApi, tmp_path):
    fake_api.answer("POST", f"{BASE}/prompts", VERSION, status=201)
    messages = tmp_path / "chat.json"
    messages.write_text(json.dumps(VERSION["prompt"]))
    made = invoke(
        "prompts", "create", "support/greet", "--chat", "-f", str(messages), "-l", "production"
    )
    assert made.exit_code == 0, made.output
    assert "created support/greet v2" in made.output
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    refused = invoke("prompts", "create", "x", "--chat", "-f", str(broken))
    assert refused.exit_code == 1
    assert "a chat prompt is a JSON list of messages" in refused.output
    assert "Hint:" in refused.output


def test_label_moves_labels_onto_a_version(fake_api: FakeApi):
    fake_api.answer("PATCH", f"{BASE}/prompts/support/greet/versions/2", VERSION)
    moved = invoke("prompts", "label", "support/greet", "2", "production")
    assert moved.exit_code == 0, moved.output
    assert "support/greet v2  latest production" in moved.output
    assert fake_api.seen == [("PATCH", f"{BASE}/prompts/support/greet/versions/2")]
