"""``{{variable}}`` names of a prompt and its chat placeholders, read as the SDKs compile them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["placeholders", "variables"]

_OPEN, _CLOSE = "{{", "}}"


def _in_text(text: str) -> list[str]:
    """The names between ``{{`` and the next ``}}``, stripped, as the Langfuse SDKs find them."""
    names, at = [], 0
    while (start := text.find(_OPEN, at)) != -1:
        end = text.find(_CLOSE, start)
        if end == -1:
            break
        names.append(text[start + len(_OPEN) : end].strip())
        at = end + len(_CLOSE)
    return names


def variables(prompt: str | Sequence[Any]) -> list[str]:
    """The variable names of a text prompt or of a chat prompt's messages, each once."""
    if isinstance(prompt, str):
        return list(dict.fromkeys(_in_text(prompt)))
    found = [
        name
        for message in prompt
        if isinstance(message, dict) and isinstance(message.get("content"), str)
        for name in _in_text(message["content"])
    ]
    return list(dict.fromkeys(found))


def placeholders(prompt: str | Sequence[Any]) -> list[str]:
    """The names of a chat prompt's placeholders (``{"type": "placeholder", "name": ...}``)."""
    if isinstance(prompt, str):
        return []
    return [
        message["name"]
        for message in prompt
        if isinstance(message, dict) and message.get("type") == "placeholder"
    ]
