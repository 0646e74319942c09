"""The annotation queue review screen, in Chromium: a queue made with the public API, its item
scored and completed by a reviewer, the scores read back through the Langfuse read API."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from .conftest import API_TOKEN

pytestmark = pytest.mark.asyncio(loop_scope="session")

OWNER, NAME = "review", "queues"


def _queue(stack: RunningStack, trace_id: str) -> dict[str, str]:
    """A queue scored with a NUMERIC and a CATEGORICAL config, one trace in it; the project's
    Basic-auth client for the reads."""
    url = str(stack.status["api_url"])
    bearer = {"Authorization": f"Bearer {API_TOKEN}"}
    made = httpx.post(f"{url}/api/v1/projects", json={"owner": OWNER, "name": NAME}, headers=bearer)
    assert made.status_code in (201, 409), made.text
    keys = stack.cli("keys", "create", "-p", f"{OWNER}/{NAME}", "--json")
    assert keys.returncode == 0, keys.stderr
    env = json.loads(keys.stdout)["env"]
    auth = (env["LANGFUSE_PUBLIC_KEY"], env["LANGFUSE_SECRET_KEY"])
    with httpx.Client(base_url=url, auth=auth, timeout=10) as http:
        quality = http.post(
            "/api/public/score-configs",
            json={"name": "quality", "dataType": "NUMERIC", "minValue": 0, "maxValue": 1},
        ).json()
        tone = http.post(
            "/api/public/score-configs",
            json={
                "name": "tone",
                "dataType": "CATEGORICAL",
                "categories": [{"label": "good", "value": 1}, {"label": "bad", "value": 0}],
            },
        ).json()
        queue = http.post(
            "/api/public/annotation-queues",
            json={"name": "negative feedback", "scoreConfigIds": [quality["id"], tone["id"]]},
        ).json()
        item = http.post(
            f"/api/public/annotation-queues/{queue['id']}/items",
            json={"objectId": trace_id, "objectType": "TRACE"},
        )
        assert item.status_code == 200, item.text
    return {"queue": queue["id"], "public": env["LANGFUSE_PUBLIC_KEY"],
            "secret": env["LANGFUSE_SECRET_KEY"], "url": url}  # fmt: skip


async def test_a_reviewer_scores_and_completes_an_item(
    page: Page, ui_url: str, ui_stack: RunningStack
):
    trace_id = f"trace-{uuid.uuid4().hex[:8]}"
    made = _queue(ui_stack, trace_id)
    await page.goto(f"{ui_url}projects/{OWNER}/{NAME}/annotation-queues")
    await page.get_by_role("link", name="negative feedback").click()
    review = page.get_by_role("form", name="Review")
    await expect(review.get_by_role("link", name=trace_id)).to_be_visible()
    await review.get_by_label("quality").fill("3")
    await review.get_by_label("tone").select_option("good")
    await review.get_by_role("button", name="Complete").click()
    await expect(page.get_by_text("Value exceeds maximum value of 1")).to_be_visible()
    await review.get_by_label("quality").fill("0.75")
    await review.get_by_label("Comment").fill("polite, slightly long")
    await screenshot(page, "annotation-review")
    await review.get_by_role("button", name="Complete").click()
    await expect(page.get_by_text("Nothing left to review")).to_be_visible()

    auth = (made["public"], made["secret"])
    with httpx.Client(base_url=made["url"], auth=auth, timeout=10) as http:

        def stored() -> list[dict[str, object]] | None:
            found = http.get(
                "/api/public/v3/scores", params={"queueId": made["queue"], "fields": "details"}
            ).json()["data"]
            return found if len(found) == 2 else None

        scores = wait_for_sync(stored, timeout=30, message="annotation scores stored")
    assert sorted((s["name"], s["value"], s["source"]) for s in scores) == [
        ("quality", 0.75, "ANNOTATION"),
        ("tone", "good", "ANNOTATION"),
    ]
    assert {s["comment"] for s in scores} == {"polite, slightly long"}
