"""Secrets shown masked: chat webhook URLs carry tokens, SMTP passwords, routing keys."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["MASK", "mask_key", "mask_url", "redact"]

MASK = "****"
_SHOWN_TAIL = 4
_MIN_TAILED = 12  # shorter keys are masked whole


def mask_url(url: str) -> str:
    """Scheme and host (and port) only: ``https://hooks.slack.com/****``."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return MASK
    origin = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    hidden = parts.path not in {"", "/"} or parts.query or parts.fragment
    return f"{origin}/{MASK}" if hidden else origin


def mask_key(key: str) -> str:
    """The last four characters of a long key, nothing of a short one."""
    return MASK + key[-_SHOWN_TAIL:] if len(key) >= _MIN_TAILED else MASK


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with each of ``secrets`` (URLs masked as URLs) replaced by its mask."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        mask = mask_url(secret) if "://" in secret else MASK
        text = text.replace(secret, mask)
    return text
