"""OpenAI-compatible providers (OpenAI, gateways, local servers) with structured output:
``response_format={"type": "json_schema", ...}``."""

from __future__ import annotations

import json
from typing import Any

import openai

from axonal_evaluation.ports import JudgeCall, Judged, ProviderBusy, ProviderRefused

__all__ = ["OpenAIJudge", "retry_after"]


def retry_after(headers: Any) -> float | None:
    """The ``Retry-After`` seconds of a provider's answer, if it sent a number."""
    try:
        return float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None


class OpenAIJudge:
    """One client per (key, base URL, headers), kept for the connection pool."""

    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._clients: dict[tuple[str, str | None, str], openai.AsyncOpenAI] = {}

    def _client(self, call: JudgeCall) -> openai.AsyncOpenAI:
        key = (call.secret_key, call.base_url, json.dumps(call.extra_headers, sort_keys=True))
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = openai.AsyncOpenAI(
                api_key=call.secret_key,
                base_url=call.base_url,
                default_headers=call.extra_headers or None,
                max_retries=0,  # the job retries, honouring Retry-After
                timeout=self._timeout,
            )
        return client

    async def judge(self, call: JudgeCall) -> Judged:
        try:
            completion = await self._client(call).chat.completions.create(
                model=call.model,
                messages=[{"role": "user", "content": call.prompt}],
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "score", "schema": call.schema, "strict": True},
                },
                temperature=0,
            )
        except openai.APIStatusError as exc:
            if exc.status_code == 429 or exc.status_code >= 500:
                raise ProviderBusy(
                    f"{exc.status_code}: {exc.message}", retry_after(exc.response.headers)
                ) from None
            raise ProviderRefused(f"{exc.status_code}: {exc.message}") from None
        except (openai.APIConnectionError, openai.APITimeoutError) as exc:
            raise ProviderBusy(f"provider unreachable: {exc}") from None
        raw = completion.choices[0].message.content or "" if completion.choices else ""
        usage = completion.usage
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = None
        return Judged(
            answer=answer,
            raw=raw,
            input_tokens=usage.prompt_tokens if usage else 0,
            output_tokens=usage.completion_tokens if usage else 0,
        )
