"""The Evaluators page, in Chromium: an online rule judging two traces the unmodified Langfuse
SDK sends, through an LLM connection to the provider double; one job scored, one failed with
why (its template variable maps to a field the trace's output does not have). Then a code
evaluator, whose job runs on the agent, and a rule sending the same trace to an annotation
queue: the template with its limits, the job linked to its run, the rule to its queue."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.llm_double import LlmDouble, llm_double
from axonal_testing.stack import RunningStack, stack_env
from axonal_testing.waiting import wait_for_sync

from .seed import OWNER, PROJECT, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The code evaluator's project: the runs of its jobs stay out of the demo's runs list.
CODE_PROJECT = f"{OWNER}/code-evals"
CODE = "def evaluate(answer):\n    return '4' in answer, 'looked for 4'\n"

TRACES_SCRIPT = r"""
import json
from langfuse import Langfuse, propagate_attributes

lf = Langfuse()
ids = []
for output in ({"answer": "4 SCORE=0.8"}, "four, with no answer field"):
    with propagate_attributes(trace_name="ui-judged"):
        with lf.start_as_current_observation(name="ui-judged", input="2+2?") as root:
            root.update(output=output)
            ids.append(lf.get_current_trace_id())
lf.flush()
lf.shutdown()
print(json.dumps(ids))
"""


@pytest.fixture(scope="module")
def double() -> Iterator[LlmDouble]:
    with llm_double() as running:
        yield running


def _judged(stack: RunningStack, double: LlmDouble) -> list[str]:
    """The two traces, once the rule's jobs for both are done."""
    on = ("-p", PROJECT)
    keys = stack.cli_json("keys", "create", *on, "--note", "evaluator pages")
    auth = (keys["env"]["LANGFUSE_PUBLIC_KEY"], keys["env"]["LANGFUSE_SECRET_KEY"])
    with httpx.Client(base_url=str(stack.status["api_url"]), auth=auth, timeout=10) as http:
        reply = http.put(
            "/api/public/llm-connections",
            json={"provider": "judge", "adapter": "openai", "secretKey": "sk-judge-1234",
                  "baseURL": double.base_url},
        )  # fmt: skip
        assert reply.status_code == 200, reply.text
    prompt = "Question: {{question}} Answer: {{answer}}"
    stack.cli_json("evals", "templates", "create", "ui-helpful", "--prompt", prompt, *on)
    stack.cli_json(
        "evals", "rules", "create", "ui-rule", "--template", "ui-helpful", "--connection",
        "judge", "--model", "gpt-judge", "--name", "ui-judged", "--var", "question=input",
        "--var", "answer=output.answer", *on,
    )  # fmt: skip
    sent = subprocess.run(
        [sys.executable, "-c", TRACES_SCRIPT],
        env=stack_env(stack.home, stack.env) | keys["env"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert sent.returncode == 0, sent.stderr
    traces: list[str] = json.loads(sent.stdout.strip().splitlines()[-1])

    def done() -> bool | None:
        jobs = stack.cli_json("evals", "jobs", "ls", "--rule", "ui-rule", *on)
        states = sorted(j["state"] for j in jobs)
        return states == ["failed", "succeeded"] or None

    wait_for_sync(done, timeout=90, message="both traces judged")
    return traces


async def test_the_evaluators_page_shows_a_rule_and_its_jobs(
    page: Page, ui_url: str, ui_stack: RunningStack, seeded: Seeded, double: LlmDouble
):
    scored, failed = _judged(ui_stack, double)
    await page.goto(f"{ui_url}{seeded.base}/evaluators")
    rule = page.get_by_role("table", name="Evaluation rules").locator('tr[data-rule="ui-rule"]')
    await expect(rule).to_contain_text("name ui-judged")
    await expect(rule).to_contain_text("active")
    jobs = page.get_by_role("table", name="Jobs")
    done = jobs.locator('tr[data-state="succeeded"]')
    await expect(done).to_contain_text("0.8")
    await expect(done.get_by_role("link")).to_have_attribute(
        "href", f"/{seeded.base}/traces/{scored}"
    )
    refused = jobs.locator('tr[data-state="failed"]')
    await expect(refused).to_contain_text("answer")
    await expect(refused.get_by_role("link")).to_have_text(failed[:12])
    await screenshot(page, "evaluators")

    await rule.get_by_role("button", name="Pause").click()
    await expect(rule).to_contain_text("paused")


def _code_judged(stack: RunningStack, source: Path) -> tuple[dict[str, dict], str]:
    """A code evaluator's rule and a queue rule on one new trace: each rule's job, once done,
    and the queue's id."""
    on = ("-p", CODE_PROJECT)
    created = stack.cli("project", "create", CODE_PROJECT)
    assert created.returncode == 0, created.stderr
    source.write_text(CODE)
    made = stack.cli_json(
        "evals", "templates", "create", "contains-four", "--code-file", str(source), *on
    )
    assert made["kind"] == "code"
    stack.cli_json(
        "evals", "rules", "create", "code-rule", "--template", "contains-four",
        "--name", "ui-code-judged", "--var", "answer=output.answer", *on,
    )  # fmt: skip
    queue = stack.cli_json("queues", "create", "second-look", *on)
    stack.cli_json(
        "evals", "rules", "create", "queue-rule", "--queue", "second-look",
        "--name", "ui-code-judged", *on,
    )  # fmt: skip
    keys = stack.cli_json("keys", "create", *on, "--note", "code evaluator pages")
    auth = (keys["env"]["LANGFUSE_PUBLIC_KEY"], keys["env"]["LANGFUSE_SECRET_KEY"])
    now = datetime.now(UTC).isoformat()
    trace = {"id": uuid.uuid4().hex, "name": "ui-code-judged", "input": "2+2?",
             "output": {"answer": "4"}, "timestamp": now}  # fmt: skip
    batch = [{"id": uuid.uuid4().hex, "type": "trace-create", "timestamp": now, "body": trace}]
    with httpx.Client(base_url=str(stack.status["api_url"]), auth=auth, timeout=10) as http:
        reply = http.post("/api/public/ingestion", json={"batch": batch})
    assert reply.status_code == 207, reply.text
    assert not reply.json()["errors"], reply.text

    def done() -> dict[str, dict] | None:
        jobs = {
            rule: stack.cli_json("evals", "jobs", "ls", "--rule", rule, *on)
            for rule in ("code-rule", "queue-rule")
        }
        finished = all(len(js) == 1 and js[0]["state"] == "succeeded" for js in jobs.values())
        return {rule: js[0] for rule, js in jobs.items()} if finished else None

    jobs = wait_for_sync(done, timeout=120, message="the code job run, the trace queued")
    return jobs, str(queue["id"])


async def test_a_code_evaluator_links_its_run_and_a_queue_rule_its_queue(
    page: Page, ui_url: str, ui_stack: RunningStack, tmp_path: Path
):
    jobs, queue = _code_judged(ui_stack, tmp_path / "contains_four.py")
    run = jobs["code-rule"]["run_uuid"]
    assert run
    assert jobs["queue-rule"]["queue_item_id"]
    base = f"projects/{CODE_PROJECT}"
    await page.goto(f"{ui_url}{base}/evaluators")

    template = page.get_by_role("table", name="Evaluator templates").locator(
        'tr[data-template="contains-four"]'
    )
    await expect(template).to_contain_text("code · python3 · 120 s · 1 cpu · 1Gi")
    await template.get_by_text("source").click()
    await expect(template.locator("pre")).to_contain_text("def evaluate(answer):")

    rules = page.get_by_role("table", name="Evaluation rules")
    await expect(rules.locator('tr[data-rule="code-rule"]')).to_contain_text(
        "score: contains-four · code"
    )
    queued_rule = rules.locator('tr[data-rule="queue-rule"]')
    await expect(queued_rule).to_contain_text("queue: second-look")
    await expect(queued_rule.get_by_role("link", name="second-look")).to_have_attribute(
        "href", f"/{base}/annotation-queues/{queue}"
    )

    table = page.get_by_role("table", name="Jobs")
    code_job = table.locator(f'tr[data-job="{jobs["code-rule"]["id"]}"]')
    await expect(code_job).to_have_attribute("data-state", "succeeded")
    await expect(code_job.locator("td").nth(3)).to_have_text("1")  # the score
    queue_job = table.locator(f'tr[data-job="{jobs["queue-rule"]["id"]}"]')
    await expect(queue_job.get_by_role("link", name="queued")).to_have_attribute(
        "href", f"/{base}/annotation-queues/{queue}"
    )
    run_link = code_job.get_by_role("link", name=f"run {run[:8]}")
    await expect(run_link).to_have_attribute("href", f"/{base}/runs/{run}")
    await screenshot(page, "evaluators-code")
    await run_link.click()
    await expect(page).to_have_url(re.compile(rf"{base}/runs/{run}$"))
