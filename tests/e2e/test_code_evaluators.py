"""Code evaluators on the embedded stack: a rule's Python function scores each new matching
trace in a job of its own, run by the agent under the template's limits, never inside a
service. A function that raises, or that outgrows its memory limit, fails its job with why."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes on the embedded stack

EVALUATORS = {
    "contains-four": (
        "def evaluate(answer, question='?'):\n"
        "    return '4' in answer, f'looked for 4 in the answer to {question}'\n",
        [],
    ),
    "boom": ("def evaluate(answer):\n    raise ValueError('cannot grade ' + answer)\n", []),
    "greedy": (
        "def evaluate(answer):\n    return len(bytearray(800 * 2**20))\n",
        ["--memory", "256Mi"],
    ),
}


def _ingest(stack: RunningStack, auth: tuple[str, str], answers: list[str]) -> list[str]:
    now = datetime.now(UTC).isoformat()
    ids = [uuid.uuid4().hex for _ in answers]
    batch = [
        {"id": uuid.uuid4().hex, "type": "trace-create", "timestamp": now,
         "body": {"id": tid, "name": "code-judged", "input": "2+2?",
                  "output": {"answer": answer}, "timestamp": now}}
        for tid, answer in zip(ids, answers, strict=True)
    ]  # fmt: skip
    with httpx.Client(base_url=str(stack.status["api_url"]), auth=auth, timeout=10) as http:
        reply = http.post("/api/public/ingestion", json={"batch": batch})
    assert reply.status_code == 207, reply.text
    assert not reply.json()["errors"], reply.text
    return ids


def test_code_evaluators_score_traces_in_jobs_under_their_limits(
    stack: RunningStack, tmp_path: Path
) -> None:
    project = f"e2e/code-evals-{uuid.uuid4().hex[:8]}"
    on = ("-p", project)
    stack.cli_json("project", "create", project)
    keys = stack.cli_json("keys", "create", *on, "--note", "code evaluators")
    auth = (keys["env"]["LANGFUSE_PUBLIC_KEY"], keys["env"]["LANGFUSE_SECRET_KEY"])
    for name, (code, options) in EVALUATORS.items():
        source = tmp_path / f"{name}.py"
        source.write_text(code)
        created = stack.cli_json(
            "evals", "templates", "create", name, "--code-file", str(source), *options, *on
        )
        assert created["kind"] == "code"
        stack.cli_json(
            "evals", "rules", "create", f"{name}-rule", "--template", name, "--name",
            "code-judged", "--var", "answer=output.answer", "--var", "question=input", *on,
        )  # fmt: skip
    four, five = _ingest(stack, auth, ["4", "five"])

    def jobs(rule: str) -> list[dict] | None:
        found = stack.cli_json("evals", "jobs", "ls", "--rule", rule, *on)
        done = len(found) == 2 and all(j["state"] in ("succeeded", "failed") for j in found)
        return found if done else None

    scored = wait_for_sync(lambda: jobs("contains-four-rule"), timeout=120, message="scored")
    by_trace = {j["trace_id"]: j for j in scored}
    assert {t: (j["state"], j["score_value"]) for t, j in by_trace.items()} == {
        four: ("succeeded", 1.0),
        five: ("succeeded", 0.0),
    }
    assert all(j["run_uuid"] for j in scored)  # each in a run of its own
    raised = wait_for_sync(lambda: jobs("boom-rule"), timeout=120, message="boom jobs done")
    for job in raised:
        assert job["state"] == "failed"
        assert "the evaluator raised ValueError: cannot grade" in job["reason"]
        assert f"axonal ops logs {job['run_uuid']}" in job["reason"]
    greedy = wait_for_sync(lambda: jobs("greedy-rule"), timeout=120, message="greedy jobs done")
    assert {j["state"] for j in greedy} == {"failed"}
    assert all("MemoryError" in j["reason"] for j in greedy), greedy

    with httpx.Client(base_url=str(stack.status["api_url"]), auth=auth, timeout=10) as http:

        def stored() -> list[dict] | None:
            reply = http.get("/api/public/v2/scores", params={"name": "contains-four"})
            data = reply.json()["data"]
            return data if len(data) == 2 else None

        scores = wait_for_sync(stored, timeout=30, message="the scores stored")
    assert {(s["traceId"], s["value"], s["source"]) for s in scores} == {
        (four, 1.0, "EVAL"),
        (five, 0.0, "EVAL"),
    }
    assert {s["comment"] for s in scores} == {"looked for 4 in the answer to 2+2?"}
    runs = stack.cli_json("ops", "ls", *on)["runs"]
    assert len(runs) == 6
    assert {tuple(r["tags"]) for r in runs} == {("evaluator",)}
