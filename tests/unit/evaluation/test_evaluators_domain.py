"""Evaluators' pure logic: selectors, rule filters and sampling, templates, answers, secrets."""

import pytest
from cryptography.fernet import Fernet, InvalidToken

from axonal_evaluation.domain import secrets
from axonal_evaluation.domain.judging import (
    BadAnswer,
    check_answer,
    render,
    score_id,
    variables,
    variables_of,
)
from axonal_evaluation.domain.retries import backoff
from axonal_evaluation.domain.rules import matches, sampled, target_key
from axonal_evaluation.domain.selectors import MissingField, parse, select
from axonal_events.evaluators import RuleFilter

DOC = {
    "input": "what is 2+2?",
    "output": {"answer": "4", "sources": [{"url": "a"}, {"url": "b"}]},
    "metadata": {"x": [10, 20], "empty": None},
}


@pytest.mark.parametrize(
    ("selector", "value"),
    [
        ("input", "what is 2+2?"),
        ("output.answer", "4"),
        ("metadata.x[0]", 10),
        ("metadata.x[-1]", 20),
        ("$.output.sources[1].url", "b"),
        ("output", DOC["output"]),
    ],
)
def test_select_reads_the_field(selector, value):
    assert select(DOC, selector) == value


@pytest.mark.parametrize(
    ("selector", "where"),
    [
        ("output.missing", "output.missing"),
        ("metadata.x[5]", "[5]"),
        ("metadata.empty", "metadata.empty"),
        ("input.deeper", "input.deeper"),
    ],
)
def test_select_names_the_missing_field(selector, where):
    with pytest.raises(MissingField, match=where.replace("[", r"\[").replace("]", r"\]")):
        select(DOC, selector)


@pytest.mark.parametrize("selector", ["", "a..b", "a[x]", "1abc", "a b"])
def test_parse_refuses_bad_selectors(selector):
    with pytest.raises(ValueError, match="selector"):
        parse(selector)


def test_parse_splits_keys_and_indexes():
    assert parse("metadata.x[0][2].y") == ["metadata", "x", 0, 2, "y"]


TRACE = {"name": "chat", "environment": "prod", "tags": ["a", "b"], "metadata": {"team": "x"}}


@pytest.mark.parametrize(
    ("rule_filter", "expected"),
    [
        (RuleFilter(), True),
        (RuleFilter(names=["chat"]), True),
        (RuleFilter(names=["other"]), False),
        (RuleFilter(tags=["a"]), True),
        (RuleFilter(tags=["a", "c"]), False),
        (RuleFilter(environments=["prod"]), True),
        (RuleFilter(environments=["dev"]), False),
        (RuleFilter(metadata={"team": "x"}), True),
        (RuleFilter(metadata={"team": "y"}), False),
        (RuleFilter(types=["GENERATION"]), False),
    ],
)
def test_trace_filters(rule_filter, expected):
    assert matches(rule_filter, TRACE, TRACE) is expected


def test_observation_filters_read_the_observation_and_the_traces_tags():
    observation = {"name": "llm", "type": "GENERATION", "environment": "prod", "metadata": {}}
    assert matches(RuleFilter(types=["GENERATION"], tags=["a"]), observation, TRACE)
    assert not matches(RuleFilter(types=["SPAN"]), observation, TRACE)


def test_sampling_is_deterministic_and_near_its_rate():
    keys = [f"trace-{i}" for i in range(4000)]
    picked = [k for k in keys if sampled(0.25, "rule-1", k)]
    assert picked == [k for k in keys if sampled(0.25, "rule-1", k)]
    assert 800 < len(picked) < 1200
    assert all(sampled(1.0, "r", k) for k in keys[:10])
    assert not any(sampled(0.0, "r", k) for k in keys[:10])


def test_target_key():
    assert target_key("t1", None) == "t1"
    assert target_key("t1", "o1") == "t1/o1"


def test_template_variables_render_and_mapping():
    text = "Q: {{question}}\nA: {{ answer }}\nAgain {{question}}"
    assert variables(text) == ["question", "answer"]
    values = variables_of(variables(text), {"question": "input", "answer": "output"}, DOC)
    rendered = render(text, values)
    assert "Q: what is 2+2?" in rendered
    assert '"answer": "4"' in rendered


def test_a_variable_mapped_to_a_missing_field_says_which():
    with pytest.raises(MissingField, match=r"variable 'answer'.*output\.nope"):
        variables_of(["answer"], {"answer": "output.nope"}, DOC)


def test_check_answer():
    assert check_answer({"score": 0.5, "reasoning": "ok"}) == (0.5, "ok")
    with pytest.raises(BadAnswer, match="score"):
        check_answer({"reasoning": "no score"})
    with pytest.raises(BadAnswer, match="score"):
        check_answer({"score": "high", "reasoning": "x"})
    with pytest.raises(BadAnswer):
        check_answer("not json")


def test_score_id_is_stable():
    assert score_id("job-1") == score_id("job-1") != score_id("job-2")


def test_backoff_honours_retry_after_and_grows():
    assert backoff(1, 2.5) == 2.5
    assert backoff(1, 999) == 30.0
    assert backoff(1, None) == pytest.approx(0.2)
    assert backoff(3, None) == pytest.approx(0.8)


def test_secrets_round_trip_and_mask():
    key = Fernet.generate_key().decode()
    token = secrets.encrypt(key, "sk-live-1234567890abcd")
    assert "1234567890" not in token
    assert secrets.decrypt(key, token) == "sk-live-1234567890abcd"
    assert secrets.mask("sk-live-1234567890abcd") == "sk-...abcd"
    with pytest.raises(InvalidToken):
        secrets.decrypt(Fernet.generate_key().decode(), token)
