"""A test double of an LLM provider: a local OpenAI- and Anthropic-compatible HTTP server.

The real providers are external and paid, so tests and benchmarks start this double instead.
It checks each request (a model, messages, and the structured-output JSON schema: OpenAI's
``response_format={"type": "json_schema", ...}`` or Anthropic's forced tool), answers
deterministically with usage tokens, and records every request. It is scriptable:

- ``latency``: seconds every answer waits (``0.2`` for 200 ms);
- ``faults``: answers to give first, in order (``"429"``, ``"500"``, ``"malformed"``,
  ``"off_schema"``), each used once;
- ``when``: ``{substring: fault}``, a fault for every request whose messages contain it;
- ``retry_after``: the ``Retry-After`` seconds sent with a 429.

A normal answer is ``{"score": <score>, "reasoning": "..."}`` where ``score`` is ``score``
(default 0.75) unless the messages hold ``SCORE=<number>``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["LlmDouble", "Recorded", "llm_double"]

FAULTS = ("429", "500", "malformed", "off_schema")
_SCORE = re.compile(r"SCORE=(-?[0-9.]+)")


@dataclass(frozen=True)
class Recorded:
    """One request the double received: its path, JSON body and headers (names lowercase)."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class _Script:
    latency: float = 0.0
    score: float = 0.75
    retry_after: float = 0.1
    faults: list[str] = field(default_factory=list)
    when: dict[str, str] = field(default_factory=dict)


class LlmDouble(ThreadingHTTPServer):
    """Serves on ``127.0.0.1`` at a free port once :func:`llm_double` starts it."""

    daemon_threads = True
    request_queue_size = 256

    def __init__(self) -> None:
        self.script = _Script()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sent = {k.lower(): v for k, v in self.headers.items()}
                status, body, headers = double.handle(self.path, raw, sent)
                payload = json.dumps(body).encode() if not isinstance(body, bytes) else body
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *_: object) -> None:
                return

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (``.../v1``); the Anthropic client takes :attr:`root_url`."""
        return f"{self.root_url}/v1"

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def configure(self, **changes: Any) -> None:
        """Change the script: ``latency``, ``score``, ``retry_after``, ``faults``, ``when``."""
        for name, value in changes.items():
            setattr(self.script, name, value)

    def _fault(self, text: str) -> str | None:
        with self._lock:
            if self.script.faults:
                return self.script.faults.pop(0)
        return next((f for marker, f in self.script.when.items() if marker in text), None)

    def handle(
        self, path: str, raw: bytes, headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str]]:
        try:
            body = json.loads(raw)
        except ValueError:
            return 400, {"error": {"message": "body is not JSON"}}, {}
        with self._lock:
            self.requests.append(Recorded(path, body, headers))
        problem = _check(path, body)
        if problem:
            return 400, {"error": {"message": problem, "type": "invalid_request_error"}}, {}
        time.sleep(self.script.latency)
        text = json.dumps(body.get("messages"))
        fault = self._fault(text)
        if fault == "429":
            message = {"error": {"message": "rate limited", "type": "rate_limit_error"}}
            return 429, message, {"Retry-After": str(self.script.retry_after)}
        if fault == "500":
            return 500, {"error": {"message": "upstream failed", "type": "server_error"}}, {}
        found = _SCORE.search(text)
        answer: Any = {"score": float(found.group(1)) if found else self.script.score}
        answer["reasoning"] = "The answer addresses the question."
        if fault == "off_schema":
            answer = {"verdict": "good"}
        anthropic = path.rstrip("/").endswith("/messages")
        usage = {"prompt_tokens": 10 + len(text) // 4, "completion_tokens": 12}
        if anthropic:
            return 200, _anthropic(body, answer, fault == "malformed", usage), {}
        return 200, _openai(body, answer, fault == "malformed", usage), {}


def _check(path: str, body: dict[str, Any]) -> str | None:  # noqa: PLR0911
    """Why a request is not one a judge should send, or ``None``."""
    if not body.get("model"):
        return "model is required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages must be a non-empty list"
    if path.rstrip("/").endswith("/messages"):
        tools = body.get("tools") or []
        if not tools or not isinstance(tools[0].get("input_schema"), dict):
            return "tools[0].input_schema (the output schema) is required"
        return None
    response_format = body.get("response_format") or {}
    if response_format.get("type") != "json_schema":
        return "response_format.type must be json_schema"
    schema = (response_format.get("json_schema") or {}).get("schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return "response_format.json_schema.schema must be an object schema"
    return None


def _openai(
    body: dict[str, Any], answer: Any, malformed: bool, usage: dict[str, int]
) -> dict[str, Any]:
    content = '{"score": 0.5, "reasoning": ' if malformed else json.dumps(answer)
    return {
        "id": f"chatcmpl-{len(content)}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
    }


def _anthropic(
    body: dict[str, Any], answer: Any, malformed: bool, usage: dict[str, int]
) -> dict[str, Any]:
    tool = body["tools"][0]["name"]
    content: list[dict[str, Any]] = (
        [{"type": "text", "text": "{not json"}]
        if malformed
        else [{"type": "tool_use", "id": "toolu_1", "name": tool, "input": answer}]
    )
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": usage["prompt_tokens"],
            "output_tokens": usage["completion_tokens"],
        },
    }


@contextmanager
def llm_double(**script: Any) -> Iterator[LlmDouble]:
    """An :class:`LlmDouble` serving in a thread until the block ends."""
    server = LlmDouble()
    server.configure(**script)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
