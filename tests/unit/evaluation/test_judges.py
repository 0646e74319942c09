"""The provider adapters against the local LLM double: structured output asked the way each
provider takes it, answers parsed with their tokens, 429 and 5xx told apart from refusals."""

from __future__ import annotations

import pytest

from axonal_evaluation.adapters import AdapterJudge
from axonal_evaluation.domain.judging import OUTPUT_SCHEMA
from axonal_evaluation.ports import JudgeCall, ProviderBusy, ProviderRefused
from axonal_testing.llm_double import llm_double


@pytest.fixture
def double():
    with llm_double() as server:
        yield server


def _call(double, adapter: str = "openai", prompt: str = "Rate SCORE=0.4") -> JudgeCall:
    base = double.base_url if adapter == "openai" else double.root_url
    return JudgeCall(adapter=adapter, secret_key="sk-test", base_url=base, model="judge-1",
                     prompt=prompt, schema=OUTPUT_SCHEMA,
                     extra_headers={"X-Team": "evals"})  # fmt: skip


@pytest.mark.parametrize("adapter", ["openai", "anthropic"])
async def test_a_judge_answers_the_schema_with_tokens(double, adapter):
    judged = await AdapterJudge(5.0).judge(_call(double, adapter))
    assert judged.answer == {"score": 0.4, "reasoning": "The answer addresses the question."}
    assert judged.input_tokens > 0
    assert judged.output_tokens == 12
    (request,) = double.requests
    assert request.body["model"] == "judge-1"
    assert request.headers.get("x-team") == "evals"
    if adapter == "openai":
        schema = request.body["response_format"]["json_schema"]["schema"]
        assert request.headers["authorization"] == "Bearer sk-test"
    else:
        assert request.body["tool_choice"] == {"type": "tool", "name": "score"}
        schema = request.body["tools"][0]["input_schema"]
        sent = request.headers.get("x-api-key") or request.headers.get("authorization", "")
        assert sent.endswith("sk-test")
    assert schema == OUTPUT_SCHEMA


@pytest.mark.parametrize("adapter", ["openai", "anthropic"])
async def test_429_and_5xx_are_busy_with_retry_after(double, adapter):
    double.configure(faults=["429", "500"], retry_after=3)
    judge = AdapterJudge(5.0)
    with pytest.raises(ProviderBusy) as limited:
        await judge.judge(_call(double, adapter))
    assert limited.value.retry_after == 3.0
    with pytest.raises(ProviderBusy, match="500"):
        await judge.judge(_call(double, adapter))


@pytest.mark.parametrize("adapter", ["openai", "anthropic"])
async def test_malformed_and_off_schema_answers_come_back_raw(double, adapter):
    double.configure(faults=["malformed", "off_schema"])
    judge = AdapterJudge(5.0)
    malformed = await judge.judge(_call(double, adapter))
    assert malformed.answer is None
    assert malformed.raw
    off = await judge.judge(_call(double, adapter))
    assert off.answer == {"verdict": "good"}


async def test_a_request_the_double_refuses_is_a_refusal(double):
    call = _call(double)
    bad = JudgeCall(**{**call.__dict__, "schema": {"type": "string"}})
    with pytest.raises(ProviderRefused, match="400"):
        await AdapterJudge(5.0).judge(bad)
    with pytest.raises(ProviderRefused, match="no adapter"):
        await AdapterJudge(5.0).judge(JudgeCall(**{**call.__dict__, "adapter": "bedrock"}))


async def test_an_unreachable_provider_is_busy():
    call = JudgeCall(adapter="openai", secret_key="k", base_url="http://127.0.0.1:9/v1",
                     model="m", prompt="p", schema=OUTPUT_SCHEMA)  # fmt: skip
    with pytest.raises(ProviderBusy, match="unreachable"):
        await AdapterJudge(2.0).judge(call)
