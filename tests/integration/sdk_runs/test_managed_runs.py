"""Inside a managed run: tags, inputs and progress sent with the run's scoped token; the
agent's run cannot be ended from the SDK's end point."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
import pytest_asyncio
import uvicorn

from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_bus.run_tokens import issue_run_token
from axonal_testing.waiting import wait_for, wait_for_sync

from .conftest import PROJECT, Laptop

pytestmark = pytest.mark.slow  # the embedded stack

ADMIN, SECRET = "admin-token", "a-run-token-secret-of-32-bytes-or-more"
JOB = """
kind: component
run:
  kind: job
  container: {image: python, command: [python, -c, "print('hi')"]}
"""
IN_RUN = """
from axonal import tracking
run = tracking.init(tags=["from-init"])
tracking.log_tags("scoped")
tracking.log_inputs(seed=7)
tracking.log_progress(0.25)
tracking.end()  # the agent owns the status: nothing happens
print(run.uuid, run.project, run.managed)
"""


@pytest_asyncio.fixture
async def guarded_api(laptop: Laptop) -> AsyncIterator[str]:
    """A second api on the stack's NATS that requires a token and accepts run tokens."""
    settings = ApiSettings(nats_url=laptop.stack.nats_url, api_token=ADMIN, run_token_secret=SECRET)
    server = uvicorn.Server(
        uvicorn.Config(build_app(settings), host="127.0.0.1", port=0, log_level="warning")
    )
    task = asyncio.create_task(server.serve())
    await wait_for(lambda: server.started, message="uvicorn started")
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def test_a_managed_run_logs_tags_with_its_scoped_token(
    laptop: Laptop, guarded_api: str
) -> None:
    admin = httpx.AsyncClient(base_url=guarded_api, headers={"Authorization": f"Bearer {ADMIN}"})
    async with admin:
        reply = await admin.post(f"{laptop.runs}/tracked", json={"name": "stands-in"})
        assert reply.status_code == 201, reply.text
        run_uuid = reply.json()["uuid"]

        def env(project: str) -> dict[str, str]:
            token = issue_run_token(SECRET, run_uuid, project, timedelta(minutes=5))
            return {"AXONAL_RUN_UUID": run_uuid, "AXONAL_PROJECT": PROJECT,
                    "AXONAL_API_URL": guarded_api, "AXONAL_API_TOKEN": token}  # fmt: skip

        done = await asyncio.to_thread(laptop.script, IN_RUN, **env(PROJECT))
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [run_uuid, PROJECT, "True"]
        run = (await admin.get(f"{laptop.runs}/{run_uuid}")).json()
        assert (run["tags"], run["inputs"], run["progress"]) == (
            ["from-init", "scoped"],
            {"seed": 7},
            0.25,
        )
        assert run["status"] == "running"

        other = await asyncio.to_thread(laptop.script, IN_RUN, **env("acme/other"))
        assert other.returncode == 1
        assert "valid for project acme/other only" in other.stderr


def test_ending_a_managed_run_is_refused(laptop: Laptop) -> None:
    reply = laptop.http.post(laptop.runs, json={"content": JOB})
    assert reply.status_code == 202, reply.text
    run_uuid = reply.json()["uuid"]
    wait_for_sync(
        lambda: laptop.http.get(f"{laptop.runs}/{run_uuid}").status_code == 200,
        timeout=20,
        message="the run is recorded",
    )
    ended = laptop.http.post(f"{laptop.runs}/{run_uuid}/end", json={"status": "succeeded"})
    assert ended.status_code == 409, ended.text
    assert "executed by an agent" in ended.json()["message"]
    assert laptop.get(run_uuid)["managed"] is True


@pytest.mark.parametrize(
    ("method", "tail", "body", "status"),
    [
        ("POST", "/0123456789abcdef0123456789abcdef/end", {"status": "succeeded"}, 404),
        ("PATCH", "/0123456789abcdef0123456789abcdef", {"tags": ["x"]}, 404),
        ("POST", "/tracked", {"uuid": "not-hex"}, 422),
        ("POST", "/tracked", {"tags": [""]}, 422),
    ],
)
def test_bad_calls_get_a_4xx_with_a_message(
    laptop: Laptop, method: str, tail: str, body: dict[str, object], status: int
) -> None:
    reply = laptop.http.request(method, f"{laptop.runs}{tail}", json=body)
    assert reply.status_code == status, reply.text
    assert reply.json()["message"]


def test_a_tracked_run_refuses_bad_patches_and_ends_once(laptop: Laptop) -> None:
    run = laptop.http.post(f"{laptop.runs}/tracked", json={}).json()
    path = f"{laptop.runs}/{run['uuid']}"
    assert laptop.http.patch(path, json={"progress": 2}).status_code == 422
    assert laptop.http.post(f"{path}/end", json={"status": "done"}).status_code == 422
    first = laptop.http.post(f"{path}/end", json={"status": "failed", "message": "m"})
    second = laptop.http.post(f"{path}/end", json={"status": "succeeded"})
    assert (first.json()["status"], second.json()["status"]) == ("failed", "failed")
    again = laptop.http.post(f"{laptop.runs}/tracked", json={"uuid": run["uuid"]})
    assert (again.status_code, again.json()["status"]) == (201, "failed")
