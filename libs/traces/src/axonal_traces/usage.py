"""Token usage in Langfuse's normalized keys (``input``, ``output``, ``total``, details).

Providers report the prompt and completion counts *including* their cached, reasoning and audio
parts; Langfuse stores the parts separately, so ``input`` and ``output`` are what is left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_traces.values import as_int

__all__ = ["from_attributes", "from_client", "integer_usage", "with_total"]

# Raw OTLP usage keys (after their prefix) -> the role they play.
_PROMPT = {"input_tokens", "prompt_tokens", "prompt", "input"}
_COMPLETION = {"output_tokens", "completion_tokens", "completion", "output"}
_TOTAL = {"total_tokens", "total"}
_CACHE_READ = {
    "cache_read_input_tokens",
    "cache_read.input_tokens",
    "prompt_details.cache_read",
    "input_cached_tokens",
}
_CACHE_CREATION = {
    "cache_creation_input_tokens",
    "cache_creation.input_tokens",
    "prompt_details.cache_write",
    "input_cache_creation",
}
_REASONING = {"reasoning_tokens", "output_reasoning_tokens", "completion_details.reasoning"}
_AUDIO_OUT = {"output_audio_tokens", "completion_details.audio"}
_USAGE_PREFIXES = ("gen_ai.usage.", "llm.token_count.")


def integer_usage(raw: Mapping[str, Any]) -> dict[str, int]:
    """The integer-valued entries of ``raw`` (others are dropped)."""
    return {str(k): n for k, v in raw.items() if (n := as_int(v)) is not None}


_ROLES = {
    **dict.fromkeys(_PROMPT, "prompt"),
    **dict.fromkeys(_COMPLETION, "completion"),
    **dict.fromkeys(_TOTAL, "total"),
    **dict.fromkeys(_CACHE_READ, "input_cached_tokens"),
    **dict.fromkeys(_CACHE_CREATION, "input_cache_creation"),
    **dict.fromkeys(_REASONING, "output_reasoning_tokens"),
    **dict.fromkeys(_AUDIO_OUT, "output_audio_tokens"),
}
_PARTS = (
    "input_cached_tokens",
    "input_cache_creation",
    "output_reasoning_tokens",
    "output_audio_tokens",
)


def _normalize(raw: dict[str, int]) -> dict[str, int]:
    roles: dict[str, int] = {}
    usage: dict[str, int] = {}
    for key, value in raw.items():
        if key in _ROLES:
            roles[_ROLES[key]] = value
        else:
            usage[key] = value
    if "prompt" in roles:
        parts = roles.get("input_cached_tokens", 0) + roles.get("input_cache_creation", 0)
        usage["input"] = max(roles["prompt"] - parts, 0)
    if "completion" in roles:
        parts = roles.get("output_reasoning_tokens", 0) + roles.get("output_audio_tokens", 0)
        usage["output"] = max(roles["completion"] - parts, 0)
    if "total" in roles:
        usage["total"] = roles["total"]
    usage.update({key: roles[key] for key in _PARTS if roles.get(key)})
    return usage


def from_attributes(attrs: Mapping[str, Any]) -> dict[str, int]:
    """``gen_ai.usage.*`` (except ``.cost``) and ``llm.token_count.*``, normalized."""
    raw: dict[str, int] = {}
    for key, value in attrs.items():
        if key.startswith(_USAGE_PREFIXES) and key != "gen_ai.usage.cost":
            number = as_int(value)
            if number is not None:
                prefix = next(p for p in _USAGE_PREFIXES if key.startswith(p))
                raw[key.removeprefix(prefix)] = number
    return _normalize(raw) if raw else {}


def _openai_details(usage: Mapping[str, Any], key: str) -> dict[str, int]:
    details = usage.get(key)
    return integer_usage(details) if isinstance(details, Mapping) else {}


def from_client(usage: Mapping[str, Any]) -> dict[str, int]:
    """Usage as an SDK sends it: Langfuse keys, OpenAI chat or responses usage, or legacy.

    OpenAI's ``prompt_tokens_details``/``completion_tokens_details`` (or ``input_``/
    ``output_tokens_details``) become ``input_<k>``/``output_<k>``, subtracted from the totals.
    """
    nested = {
        "input": _openai_details(usage, "prompt_tokens_details")
        or _openai_details(usage, "input_tokens_details"),
        "output": _openai_details(usage, "completion_tokens_details")
        or _openai_details(usage, "output_tokens_details"),
    }
    flat = integer_usage(usage)
    prompt = flat.pop("prompt_tokens", flat.pop("promptTokens", flat.pop("input_tokens", None)))
    completion = flat.pop(
        "completion_tokens", flat.pop("completionTokens", flat.pop("output_tokens", None))
    )
    total = flat.pop("total_tokens", flat.pop("totalTokens", None))
    for key in ("inputCost", "outputCost", "totalCost"):
        flat.pop(key, None)
    if prompt is not None:
        flat["input"] = max(prompt - sum(nested["input"].values()), 0)
    if completion is not None:
        flat["output"] = max(completion - sum(nested["output"].values()), 0)
    if total is not None:
        flat["total"] = total
    for side, details in nested.items():
        for key, value in details.items():
            if value:
                flat[f"{side}_{key}"] = value
    return flat


def with_total(usage: Mapping[str, int]) -> dict[str, int]:
    """``usage`` with ``total`` = the sum of the other entries when the client sent none."""
    if not usage or "total" in usage:
        return dict(usage)
    return {**usage, "total": sum(usage.values())}
