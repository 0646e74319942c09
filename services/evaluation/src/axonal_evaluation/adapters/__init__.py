"""The real LLM providers behind :class:`axonal_evaluation.ports.Judge`."""

from __future__ import annotations

from axonal_evaluation.adapters.anthropic_judge import AnthropicJudge
from axonal_evaluation.adapters.openai_judge import OpenAIJudge
from axonal_evaluation.ports import Judge, JudgeCall, Judged, ProviderRefused

__all__ = ["AdapterJudge"]


class AdapterJudge:
    """Sends each call to the adapter its connection names (``openai``, ``anthropic``)."""

    def __init__(self, timeout: float) -> None:
        self._adapters: dict[str, Judge] = {
            "openai": OpenAIJudge(timeout),
            "anthropic": AnthropicJudge(timeout),
        }

    async def judge(self, call: JudgeCall) -> Judged:
        adapter = self._adapters.get(call.adapter)
        if adapter is None:
            raise ProviderRefused(f"no adapter '{call.adapter}' (openai, anthropic)")
        return await adapter.judge(call)
