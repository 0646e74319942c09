"""The Evaluators page, in Chromium: an online rule judging two traces the unmodified Langfuse
SDK sends, through an LLM connection to the provider double; one job scored, one failed with
why (its template variable maps to a field the trace's output does not have)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.llm_double import LlmDouble, llm_double
from axonal_testing.stack import RunningStack, stack_env
from axonal_testing.waiting import wait_for_sync

from .seed import PROJECT, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")

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
