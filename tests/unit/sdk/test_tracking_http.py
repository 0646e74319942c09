"""The HTTP sender against a small real HTTP server: delivered, refused, retried."""

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from axonal._metrics import Writer
from axonal._transport import Destination, Refused, Throttled
from axonal_events.metrics import MetricBatch
from axonal_testing.waiting import wait_for_sync

RUN = uuid.uuid4().hex


class Api(ThreadingHTTPServer):
    """Answers ``replies`` in turn (then 202) and records each request."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.replies: list[tuple[int, dict]] = []
        self.requests: list[tuple[str, dict[str, str], bytes]] = []


class Handler(BaseHTTPRequestHandler):
    server: Api

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests.append((self.path, dict(self.headers), body))
        status, reply = self.server.replies.pop(0) if self.server.replies else (202, {})
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def api():
    server = Api()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def destination(api, token="tok"):
    url = f"http://127.0.0.1:{api.server_port}"
    return Destination(RUN, api_url=url, project="acme/demo", token=token)


def test_a_batch_is_posted_with_its_idempotency_key_and_token(api):
    sender = destination(api).open()
    try:
        sender.send("m:1", b'{"run_uuid": "x"}')
    finally:
        sender.close()
    [(path, headers, body)] = api.requests
    assert path == f"/api/v1/acme/demo/runs/{RUN}/metrics"
    assert headers["Authorization"] == "Bearer tok"
    assert headers["Idempotency-Key"] == "m:1"
    assert body == b'{"run_uuid": "x"}'


def test_client_errors_refuse_the_batch_and_others_are_retried(api):
    api.replies = [
        (403, {"code": "forbidden", "message": "not your project"}),
        (503, {}),
        (429, {}),
        (408, {}),
    ]
    sender = destination(api, token=None).open()
    try:
        with pytest.raises(Refused, match="HTTP 403: not your project"):
            sender.send("m:1", b"{}")
        with pytest.raises(httpx.HTTPStatusError):
            sender.send("m:2", b"{}")
        with pytest.raises(Throttled):  # over the project's rate: sent again after a wait
            sender.send("m:2", b"{}")
        with pytest.raises(httpx.HTTPStatusError):
            sender.send("m:2", b"{}")
    finally:
        sender.close()
    assert all("Authorization" not in headers for _, headers, _ in api.requests)


def test_a_writer_delivers_over_http_after_the_api_recovers(api, tmp_path, capsys):
    api.replies = [(503, {"message": "busy"})]
    writer = Writer(RUN, destination(api).open, tmp_path / f"{RUN}.jsonl")
    writer.log({"loss": 0.5, "acc": 0.9}, None)
    assert writer.flush(10)
    wait_for_sync(lambda: len(api.requests) == 2, timeout=10)
    writer.close(10)
    first, second = api.requests
    assert first[1]["Idempotency-Key"] == second[1]["Idempotency-Key"]  # the retry keeps it
    batch = MetricBatch.model_validate_json(second[2])
    assert [(p.name, p.step, p.value) for p in batch.points] == [("loss", 0, 0.5), ("acc", 0, 0.9)]
    assert "the backend is unreachable (Server error '503" in capsys.readouterr().err
    assert not (tmp_path / f"{RUN}.jsonl").exists()
