"""Integration events: subject tokens, de-duplication ids and binary-mode documents."""

from __future__ import annotations

import base64

import pytest
from pydantic import ValidationError

from axonal_events import Subjects
from axonal_events.external import ExternalEvent, from_binary, message_id, subject_tokens


def make(**overrides: object) -> ExternalEvent:
    doc = {"specversion": "1.0", "id": "1", "source": "/git/acme", "type": "push", **overrides}
    return ExternalEvent.model_validate(doc)


@pytest.mark.parametrize(
    ("source", "event_type", "expected"),
    [
        ("/git/acme", "push", ("git_acme", "push")),
        ("https://x.io/a?b=c", "com.github.pr", ("https_x_io_a_b_c", "com.github.pr")),
        ("///", "a..b", ("unknown", "a._.b")),
        ("urn:é", "type with spaces", ("urn", "type_with_spaces")),
    ],
)  # fmt: skip
def test_subject_tokens_are_always_valid_subject_parts(
    source: str, event_type: str, expected: tuple[str, str]
) -> None:
    tokens = subject_tokens(make(source=source, type=event_type))
    assert tokens == expected
    Subjects().external(*tokens)  # raises on an invalid token


def test_ids_are_unique_per_source() -> None:
    assert message_id(make(id="1")) == message_id(make(id="1"))
    assert message_id(make(id="1")) != message_id(make(id="1", source="/other"))
    assert message_id(make(id="1")) != message_id(make(id="2"))


def test_binary_mode_keeps_headers_as_attributes_and_the_body_as_data() -> None:
    headers = {"ce-specversion": "1.0", "ce-id": "7", "ce-source": "s", "ce-type": "t"}
    as_json = from_binary({**headers, "content-type": "application/json"}, b'{"a": 1}')
    assert ExternalEvent.model_validate(as_json).data == {"a": 1}
    as_text = from_binary({**headers, "content-type": "text/plain"}, b"hello")
    assert as_text["data"] == "hello"
    raw = bytes(range(5))
    as_bytes = from_binary({**headers, "content-type": "application/octet-stream"}, raw)
    assert base64.b64decode(as_bytes["data_base64"]) == raw
    assert "data" not in from_binary(headers, b"")
    with pytest.raises(ValueError, match="not the JSON"):
        from_binary({**headers, "content-type": "application/json"}, b"{")


def test_platform_types_cannot_come_from_outside() -> None:
    with pytest.raises(ValidationError, match="platform's own"):
        make(type="axonal.run.succeeded")
