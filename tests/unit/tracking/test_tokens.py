"""Token counting with tiktoken: only known models, never blocking on the encoding's download."""

from __future__ import annotations

from axonal_testing.waiting import wait_for_sync
from axonal_tracking import tokens
from axonal_tracking.tokens import count_tokens


def test_models_tiktoken_does_not_know_are_not_counted():
    assert count_tokens("claude-3-5-sonnet", "hello") is None
    assert count_tokens("my-model", "hello") is None


def test_known_models_are_counted_once_the_encoding_is_there():
    """The first call starts loading and answers ``None``; offline it stays ``None``."""
    first = count_tokens("openai/gpt-4o-mini", "hello world")
    assert first is None or first > 0
    wait_for_sync(
        lambda: tokens._encodings.get("o200k_base") != "loading", timeout=30, message="loaded"
    )
    found = count_tokens("gpt-4o-mini", [{"role": "user", "content": "hello world"}])
    if tokens._encodings.get("o200k_base") is None:  # offline: no encoding, no count
        assert found is None
    else:
        assert found is not None
        assert found > 0
