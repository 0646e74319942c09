"""Events from outside systems (integrations): CloudEvents 1.0 as they send them.

They arrive over HTTP (structured or binary mode) or are published by trusted integrations on
``<ns>.ext.<source>.<type>`` and land on the EVENTS stream as sent, with the ``project``
extension naming the project they were posted to. Their ``type`` is theirs to choose, except
the ``axonal.`` prefix: the platform's own facts cannot be forged from outside.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from axonal_events.envelope import TYPE_PREFIX

__all__ = ["ExternalEvent", "from_binary", "message_id", "subject_tokens"]

#: CloudEvents extension attribute names: lower-case letters and digits (20 at most advised).
_EXTENSION_NAME = re.compile(r"^[a-z0-9]{1,20}$")
_NOT_TOKEN = re.compile(r"[^A-Za-z0-9_-]+")


class ExternalEvent(BaseModel):
    """A CloudEvents 1.0 event in structured JSON; extension attributes are kept as sent."""

    model_config = ConfigDict(frozen=True, extra="allow")

    specversion: Literal["1.0"]
    id: str = Field(min_length=1, max_length=256)
    source: str = Field(min_length=1, max_length=1024)
    type: str = Field(min_length=1, max_length=256)
    subject: str | None = Field(default=None, max_length=1024)
    time: datetime | None = None
    datacontenttype: str | None = Field(default=None, max_length=256)
    dataschema: str | None = Field(default=None, max_length=1024)
    data: Any = None
    data_base64: str | None = None
    project: str | None = Field(default=None, description="The project it was posted to.")

    @field_validator("type")
    @classmethod
    def _not_a_platform_fact(cls, value: str) -> str:
        if value.startswith(TYPE_PREFIX):
            raise ValueError(f"types starting with {TYPE_PREFIX!r} are the platform's own")
        return value

    @field_validator("time")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("time must carry a timezone (RFC 3339)")
        return value

    @model_validator(mode="after")
    def _extensions_are_well_named(self) -> ExternalEvent:
        for name in self.model_extra or {}:
            if not _EXTENSION_NAME.match(name):
                raise ValueError(
                    f"{name!r} is not a CloudEvents attribute name (lower-case letters and "
                    "digits, at most 20)"
                )
        if self.data is not None and self.data_base64 is not None:
            raise ValueError("an event carries data or data_base64, not both")
        return self

    def to_json(self) -> bytes:
        """The event as JSON, unset attributes left out."""
        return json.dumps(
            self.model_dump(mode="json", exclude_none=True), separators=(",", ":")
        ).encode()


def from_binary(headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The attributes and data of a binary-mode HTTP request, as a structured event document.

    ``ce-*`` headers give the attributes, ``content-type`` the ``datacontenttype``; a JSON
    body is kept as JSON data, text as a string and anything else as ``data_base64``.
    """
    doc: dict[str, Any] = {
        key.lower().removeprefix("ce-"): value
        for key, value in headers.items()
        if key.lower().startswith("ce-")
    }
    content_type = headers.get("content-type")
    if content_type:
        doc["datacontenttype"] = content_type
    if not body:
        return doc
    media = (content_type or "").split(";")[0].strip().lower()
    if media == "application/json" or media.endswith("+json"):
        try:
            doc["data"] = json.loads(body)
        except ValueError:
            raise ValueError("the body is not the JSON its content-type says") from None
    elif media.startswith("text/"):
        doc["data"] = body.decode("utf-8", errors="replace")
    else:
        doc["data_base64"] = base64.b64encode(body).decode()
    return doc


def subject_tokens(event: ExternalEvent) -> tuple[str, str]:
    """``(source, type)`` made subject-safe for ``<ns>.ext.<source>.<type>``.

    The source becomes one token (its letters, digits, ``-`` and ``_``, the rest as ``_``);
    the type keeps its dots as token separators.
    """
    source = _NOT_TOKEN.sub("_", event.source).strip("_")[:64] or "unknown"
    parts = (_NOT_TOKEN.sub("_", part) or "_" for part in event.type.split("."))
    return source, ".".join(parts)


def message_id(event: ExternalEvent) -> str:
    """The JetStream de-duplication id: CloudEvents ids are unique per source."""
    return "ext-" + hashlib.sha256(f"{event.source}\n{event.id}".encode()).hexdigest()[:40]
