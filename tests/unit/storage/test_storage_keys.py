"""Artifact key and prefix validation."""

import pytest

from axonal_storage import InvalidKeyError, validate_key, validate_prefix


@pytest.mark.parametrize(
    "key",
    ["a", "runs/42/model.pt", "données/模型/ü 1+2%.bin", ".hidden/x", "a..b/c", "x" * 255],
)
def test_valid_keys_are_returned_unchanged(key: str) -> None:
    assert validate_key(key) == key


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "empty"),
        ("/etc/passwd", "relative"),
        ("a/", "end with '/'"),
        ("a//b", "empty segments"),
        ("..", "'..' segments"),
        ("a/../../b", "'..' segments"),
        ("./a", "'.' segments"),
        ("a\x00b", "control characters"),
        ("line\nbreak", "control characters"),
        ("x" * 256, "segment cannot exceed"),
        ("/".join(["é" * 100] * 6), "1024 bytes"),
    ],
)
def test_invalid_keys_raise_with_reason(key: str, reason: str) -> None:
    with pytest.raises(InvalidKeyError) as info:
        validate_key(key)
    assert reason in info.value.reason
    assert info.value.key == key
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("prefix", ["", "runs", "runs/", "runs/4", "a/b/"])
def test_valid_prefixes(prefix: str) -> None:
    assert validate_prefix(prefix) == prefix


@pytest.mark.parametrize("prefix", ["/", "/runs", "a/../b", "a//", "..", "a//b/"])
def test_invalid_prefixes(prefix: str) -> None:
    with pytest.raises(InvalidKeyError):
        validate_prefix(prefix)
