"""Create a project and watch the event it emits. Needs a running platform (`axonal up`).

It connects to NATS as the stack's ``admin`` user, which may use every subject (each service
connects as its own user, limited to its own subjects).
"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import nats

from axonal_bus import rpc
from axonal_events import Subjects
from axonal_events.identity import CreateProjectRequest
from axonal_events.rpcs import Identity
from axonal_stack.settings import StackPaths
from axonal_stack.users import admin_url


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
    home = Path(os.environ.get("AXONAL_HOME") or "~/.axonal").expanduser()
    asyncio.run(main(admin_url(StackPaths(home).nats_users, status["nats_url"]), *sys.argv[1:]))
