"""Token counts for generations that sent text but no usage, with ``tiktoken`` (imported lazily).

Only models tiktoken knows are counted. Loading an encoding may download its file, so it is
loaded once per encoding on a background thread; until it is ready counts are ``None`` and the
generation simply has no computed usage. Where the file cannot be downloaded (an offline or
air-gapped deployment) the encoding comes from ``bpe_openai``, which has tiktoken's encodings
built in and the same API.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import structlog

__all__ = ["count_tokens"]

log = structlog.get_logger(__name__)

_encodings: dict[str, Any] = {}  # encoding name -> tiktoken Encoding, or None when unavailable
_lock = threading.Lock()


def _encoding_name(model: str) -> str | None:
    import tiktoken  # noqa: PLC0415 - only generations without usage need it

    try:
        return str(tiktoken.encoding_name_for_model(model.rsplit("/", 1)[-1]))
    except KeyError:
        return None


def _load(name: str) -> None:
    import tiktoken  # noqa: PLC0415

    try:
        _encodings[name] = tiktoken.get_encoding(name)
        return
    except Exception as exc:  # noqa: BLE001 - offline or a broken cache: the built-in tables
        log.info("tokens.tiktoken_unavailable", encoding=name, error=str(exc))
    try:
        import bpe_openai  # noqa: PLC0415

        _encodings[name] = bpe_openai.get_encoding(name)
    except Exception as exc:  # noqa: BLE001 - an encoding neither has: count nothing
        log.warning("tokens.encoding_unavailable", encoding=name, error=str(exc))
        _encodings[name] = None


def count_tokens(model: str, value: Any) -> int | None:
    """Tokens of ``value`` (text, or JSON of anything else) for ``model``; ``None`` if unknown."""
    name = _encoding_name(model)
    if name is None:
        return None
    with _lock:
        if name not in _encodings:
            _encodings[name] = "loading"
            threading.Thread(target=_load, args=(name,), daemon=True).start()
    encoding = _encodings.get(name)
    if encoding is None or encoding == "loading":
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return len(encoding.encode(text, disallowed_special=()))
