"""Code evaluators' pure logic: the signature read without running the code, the arguments
read from a target, the job's polyaxonfile (compiled by the spec library), the harness that
runs in the job, and what a finished run means; score conditions of rules."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

from axonal_evaluation import code_harness
from axonal_evaluation.domain.code_evaluators import (
    check_runtime,
    operation,
    outcome,
    run_uuid,
    signature,
    values_of,
)
from axonal_evaluation.domain.rules import matches, score_holds
from axonal_evaluation.domain.selectors import MissingField
from axonal_events.evaluators import CodeRuntime, RuleFilter, ScoreCondition
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.parsing import load

CODE = """
def evaluate(output, expected=None, *, strict=False, **extra):
    return float(output == expected), "exact match"
"""


def test_the_signature_is_read_without_running_the_code() -> None:
    sig = signature(CODE + "\nraise SystemExit('never run')\n")
    assert (sig.required, sig.optional, sig.any_keyword) == (
        ["output"],
        ["expected", "strict"],
        True,
    )


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("def evaluate(:\n", "code: line 1"),
        ("def judge(x):\n    return 1\n", "define a module-level function evaluate"),
        ("async def evaluate(x):\n    return 1\n", "not async"),
    ],
)
def test_code_that_cannot_serve_is_refused_with_why(code: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        signature(code)


def test_arguments_are_read_by_selector_and_a_missing_optional_one_is_left_out() -> None:
    sig = signature(CODE)
    document = {"output": "4", "dataset_item": {"expected_output": "4"}}
    mapping = {"expected": "dataset_item.expected_output", "extra_one": "output"}
    assert values_of(sig, mapping, document) == {"output": "4", "expected": "4", "extra_one": "4"}
    assert values_of(sig, {}, {"output": "4"}) == {"output": "4"}
    with pytest.raises(MissingField, match="variable 'output'"):
        values_of(sig, {"output": "output.answer"}, document)


def test_runtime_limits_must_be_quantities() -> None:
    check_runtime(CodeRuntime(cpu="500m", memory="512Mi"))
    with pytest.raises(ValueError, match=r"runtime\.memory: 'lots'"):
        check_runtime(CodeRuntime(memory="lots"))


def test_the_job_compiles_with_its_limits_and_its_payload_out_of_templating_reach() -> None:
    values = {"output": "{{ globals.uuid }} is not a template here"}
    text = operation(
        rule_name="Exact Match!",
        job_id="job-1",
        code=CODE,
        runtime=CodeRuntime(timeout_seconds=30, memory="256Mi"),
        values=values,
    )
    compiled = compile_operation(load(text), CompileOptions()).model_dump(mode="json")
    assert compiled["name"] == "eval-exact-match"
    assert compiled["tags"] == ["evaluator"]
    run = compiled["run"]
    container = run["container"]
    assert container["command"] == ["python3", "-u", "code_harness.py"]
    assert container["resources"]["limits"] == {"cpu": "1", "memory": "256Mi"}
    assert compiled["termination"]["timeout"] == 30
    files = {step["file"]["filename"]: step["file"]["content"] for step in run["init"]}
    payload = json.loads(base64.b64decode(files["payload.b64"]))
    assert payload == {"code": CODE, "variables": values}
    assert files["code_harness.py"] == Path(code_harness.__file__).read_text()
    assert run_uuid("job-1") == run_uuid("job-1") != run_uuid("job-2")


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (0.5, {"score": 0.5, "reasoning": ""}),
        (True, {"score": 1.0, "reasoning": ""}),
        ((1, "ok"), {"score": 1.0, "reasoning": "ok"}),
        ({"score": 0, "reasoning": "no"}, {"score": 0.0, "reasoning": "no"}),
    ],
)
def test_the_harness_accepts_a_number_a_pair_or_a_mapping(result: object, expected: dict) -> None:
    assert code_harness.normalise(result) == expected


@pytest.mark.parametrize("result", ["good", float("nan"), {"reasoning": "no score"}, None])
def test_the_harness_refuses_what_is_not_a_score(result: object) -> None:
    with pytest.raises(TypeError):
        code_harness.normalise(result)


def _harness(tmp_path: Path, code: str, variables: dict) -> tuple[int, dict, str]:
    payload = json.dumps({"code": code, "variables": variables}).encode()
    (tmp_path / "payload.b64").write_text(base64.b64encode(payload).decode())
    outputs = tmp_path / "outputs.json"
    done = subprocess.run(
        [sys.executable, code_harness.__file__],
        cwd=tmp_path,
        env={"AXONAL_RUN_OUTPUTS_FILE": str(outputs)},
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, json.loads(outputs.read_text()), done.stderr


def test_the_harness_writes_the_score_or_the_error_as_outputs(tmp_path: Path) -> None:
    assert _harness(tmp_path, CODE, {"output": "4", "expected": "4"}) == (
        0,
        {"score": 1.0, "reasoning": "exact match"},
        "",
    )
    failing = "def evaluate(output):\n    raise ValueError(f'cannot read {output!r}')\n"
    code, outputs, stderr = _harness(tmp_path, failing, {"output": "x"})
    assert (code, outputs) == (1, {"error": "ValueError: cannot read 'x'"})
    assert 'evaluator.py", line 2, in evaluate' in stderr


def test_a_finished_run_gives_the_score_or_says_why_not() -> None:
    assert outcome("succeeded", {"score": 0.25, "reasoning": "r"}) == (0.25, "r")
    with pytest.raises(ValueError, match="raised ValueError: bad"):
        outcome("failed", {"error": "ValueError: bad"})
    with pytest.raises(ValueError, match="run ended stopped"):
        outcome("stopped", {})
    with pytest.raises(ValueError, match="evaluator's outputs breaks"):
        outcome("succeeded", {"score": "high", "reasoning": "r"})


def test_score_conditions_compare_numbers_and_labels() -> None:
    negative = ScoreCondition(name="feedback", operator="<", value=0)
    assert score_holds(negative, {"name": "feedback", "value": -1.0})
    assert not score_holds(negative, {"name": "feedback", "value": 1.0})
    assert not score_holds(negative, {"name": "tone", "value": -1.0})
    assert not score_holds(negative, {"name": "feedback", "string_value": "bad"})
    bad = ScoreCondition(name="label", value="bad")
    assert score_holds(bad, {"name": "label", "string_value": "bad", "value": None})
    assert not score_holds(ScoreCondition(name="label", operator="<", value="bad"),
                           {"name": "label", "string_value": "a"})  # fmt: skip
    rule = RuleFilter(names=["chat"], scores=[negative, bad])
    trace = {"name": "chat"}
    both = [{"name": "feedback", "value": -2}, {"name": "label", "string_value": "bad"}]
    assert matches(rule, trace, trace, both)
    assert not matches(rule, trace, trace, both[:1])
    assert matches(RuleFilter(names=["chat"]), trace, trace)
