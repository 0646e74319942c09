"""Token counting: only models tiktoken knows, never blocking on loading the encoding, and
offline too (tiktoken's encodings built in, when its files cannot be downloaded)."""

from __future__ import annotations

import pytest
import tiktoken

from axonal_testing.waiting import wait_for_sync
from axonal_tracking.traces import tokens
from axonal_tracking.traces.tokens import count_tokens


@pytest.fixture
def offline(monkeypatch):
    """tiktoken cannot fetch its files; no encoding loaded yet."""

    def unreachable(name):
        raise ConnectionError(f"cannot download {name}")

    monkeypatch.setattr(tiktoken, "get_encoding", unreachable)
    monkeypatch.setattr(tokens, "_encodings", {})


def loaded(name: str) -> None:
    wait_for_sync(lambda: tokens._encodings.get(name) != "loading", timeout=30, message=name)


def test_models_tiktoken_does_not_know_are_not_counted():
    assert count_tokens("claude-3-5-sonnet", "hello") is None
    assert count_tokens("my-model", "hello") is None


def test_the_first_call_starts_loading_and_the_count_follows_offline_too(offline):
    assert count_tokens("openai/gpt-4o-mini", "hello world") is None  # loading, not waiting
    loaded("o200k_base")
    assert count_tokens("gpt-4o-mini", "hello world") == 2  # "hello", " world"
    messages = [{"role": "user", "content": "hello world"}]
    assert count_tokens("gpt-4o-mini", messages) == 15  # the JSON text of the messages
    count_tokens("gpt-4", "x")
    loaded("cl100k_base")
    assert count_tokens("gpt-4", "hello world") == 2
