"""Create a project and watch the event it emits. Needs a running platform (`axonal up`)."""

import asyncio
import json
import subprocess
import sys

import nats

from axonal_bus import rpc
from axonal_events import Subjects
from axonal_events.identity import CreateProjectRequest
from axonal_events.rpcs import Identity


async def main(nats_url: str, owner: str = "acme", name: str = "churn-model") -> None:
    nc = await nats.connect(nats_url)
    subjects = Subjects()
    seen = await nc.subscribe(subjects.event("project.created"))  # a plain observer
    request = CreateProjectRequest(owner=owner, name=name)
    project = await rpc.call(nc, subjects, Identity.create_project, request)
    event = json.loads((await seen.next_msg(timeout=5)).data)
    print(project.id, event["type"], event["data"]["name"])
    await nc.close()


if __name__ == "__main__":
    status = json.loads(
        subprocess.check_output([sys.executable, "-m", "axonal", "status", "--json"])
    )
    asyncio.run(main(status["nats_url"], *sys.argv[1:]))
