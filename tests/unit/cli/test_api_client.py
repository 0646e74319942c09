"""The CLI's HTTP client: a dropped event stream resumes where it stopped; errors keep
their status and code."""

import httpx
import pytest

from axonal.api_client import ApiClient, ApiError

FIRST = b'id: 1\nevent: log\ndata: {"line": "a"}\n\n'
REST = b'id: 2\nevent: log\ndata: {"line": "b"}\n\nevent: done\ndata: {}\n\n'


class _Dropped(httpx.SyncByteStream):
    def __iter__(self):
        yield FIRST
        raise httpx.ReadError("connection reset")


def test_a_dropped_stream_resumes_after_the_last_event_id(monkeypatch):
    monkeypatch.setattr("axonal.api_client.time.sleep", lambda _: None)
    seen: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("last-event-id"))
        if len(seen) == 1:
            return httpx.Response(200, stream=_Dropped())
        return httpx.Response(200, content=REST)

    client = ApiClient("http://api", transport=httpx.MockTransport(handler))
    events = list(client.stream_events("/logs/stream"))
    assert events == [("log", {"line": "a"}), ("log", {"line": "b"}), ("done", {})]
    assert seen == [None, "1"]


def test_a_stream_that_keeps_failing_is_a_clear_error(monkeypatch):
    monkeypatch.setattr("axonal.api_client.time.sleep", lambda _: None)

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    client = ApiClient("http://api", transport=httpx.MockTransport(handler))
    with pytest.raises(ApiError, match="cannot reach the api"):
        list(client.stream_events("/logs/stream", retries=2))


def test_an_error_answer_keeps_its_status_and_code_and_hints_by_status():
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/gone":
            return httpx.Response(404, json={"code": "not_found", "message": "run x not found"})
        details = [{"location": "inputs.lr", "message": "not a float"}]
        return httpx.Response(
            400, json={"code": "invalid", "message": "bad input", "details": details}
        )

    client = ApiClient("http://api", transport=httpx.MockTransport(handler))
    with pytest.raises(ApiError) as gone:
        client.request("GET", "/gone")
    assert (gone.value.status, gone.value.code) == (404, "not_found")
    assert gone.value.hint == "check the uuid and the project (-p owner/project)"
    with pytest.raises(ApiError) as invalid:
        client.request("POST", "/runs")
    assert (invalid.value.status, invalid.value.code) == (400, "invalid")
    assert invalid.value.details == [{"location": "inputs.lr", "message": "not a float"}]
    assert "listed above" in (invalid.value.hint or "")
