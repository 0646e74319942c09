"""Anthropic: the output schema is a tool the model is made to call."""

from __future__ import annotations

import json

import anthropic

from axonal_evaluation.adapters.openai_judge import retry_after
from axonal_evaluation.ports import JudgeCall, Judged, ProviderBusy, ProviderRefused

__all__ = ["AnthropicJudge"]

_TOOL = "score"


class AnthropicJudge:
    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._clients: dict[tuple[str, str | None, str], anthropic.AsyncAnthropic] = {}

    def _client(self, call: JudgeCall) -> anthropic.AsyncAnthropic:
        key = (call.secret_key, call.base_url, json.dumps(call.extra_headers, sort_keys=True))
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = anthropic.AsyncAnthropic(
                api_key=call.secret_key,
                base_url=call.base_url,
                default_headers=call.extra_headers or None,
                max_retries=0,
                timeout=self._timeout,
            )
        return client

    async def judge(self, call: JudgeCall) -> Judged:
        try:
            message = await self._client(call).messages.create(
                model=call.model,
                max_tokens=1024,
                messages=[{"role": "user", "content": call.prompt}],
                tools=[
                    {"name": _TOOL, "description": "Record the score.", "input_schema": call.schema}
                ],
                tool_choice={"type": "tool", "name": _TOOL},
            )
        except anthropic.APIStatusError as exc:
            if exc.status_code == 429 or exc.status_code >= 500:
                raise ProviderBusy(
                    f"{exc.status_code}: {exc.message}", retry_after(exc.response.headers)
                ) from None
            raise ProviderRefused(f"{exc.status_code}: {exc.message}") from None
        except (anthropic.APIConnectionError, anthropic.APITimeoutError) as exc:
            raise ProviderBusy(f"provider unreachable: {exc}") from None
        answer = None
        raw = ""
        for block in message.content:
            if block.type == "tool_use":
                answer = block.input
                raw = json.dumps(answer)
                break
            if block.type == "text":
                raw = block.text
        return Judged(
            answer=answer,
            raw=raw,
            input_tokens=message.usage.input_tokens,
            output_tokens=message.usage.output_tokens,
        )
