"""A service on the embedded stack, as a user runs one: it is `running` once it answers, its
URL is on the run (api, `axonal ops get`), and stopping it frees its port."""

from __future__ import annotations

import socket

import httpx
import pytest

from .lifecycle_support import User

pytestmark = pytest.mark.slow  # real processes on the embedded stack

SERVICE = """
version: 1.1
kind: component
name: files
termination: {probe: {http: {path: /}}}
run:
  kind: service
  ports: [8000]
  container:
    image: python
    command: [/bin/sh, -c]
    args: ["sleep 1; exec python -m http.server {{ globals.ports[0] }} --bind 127.0.0.1"]
"""


def bindable(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
            sock.listen()
        except OSError:
            return False
        return True


def test_a_service_answers_at_its_url_until_it_is_stopped(user: User) -> None:
    uuid = user.run(SERVICE)
    run = user.wait_status(uuid, "running", timeout=60)
    url = run["endpoints"]["8000"]
    port = int(url.removeprefix("http://127.0.0.1:").removesuffix("/"))
    assert httpx.get(url, timeout=10).status_code == 200
    history = user.statuses(uuid)
    assert history.index("starting") < history.index("running"), history

    shown = user.stack.cli("ops", "get", uuid, "-p", user.project)
    assert shown.returncode == 0, shown.stderr
    assert f"{url} (port 8000)" in shown.stdout, shown.stdout

    user.cli_json("ops", "stop", uuid)
    assert user.wait_done(uuid)["status"] == "stopped"
    assert bindable(port)
