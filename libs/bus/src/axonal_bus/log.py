"""structlog setup and the middleware that binds message context to every log line."""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog
from faststream import BaseMiddleware
from faststream.message import StreamMessage

__all__ = ["HEADER_CORRELATION", "HEADER_TYPE", "LogContextMiddleware", "configure_logging"]

HEADER_TYPE = "Ce-Type"
HEADER_CORRELATION = "Ce-Correlationid"
_log = structlog.get_logger(__name__)


def configure_logging(level: str = "INFO", *, json: bool | None = None) -> None:
    """Structured logs on stderr: JSON when not on a terminal, readable when on one."""
    render_json = (not sys.stderr.isatty()) if json is None else json
    renderer: Any = (
        structlog.processors.JSONRenderer() if render_json else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


class LogContextMiddleware(BaseMiddleware):
    """Bind event id, type, correlation id, subject and delivery count to handling logs."""

    async def consume_scope(self, call_next: Any, msg: StreamMessage[Any]) -> Any:
        headers = msg.headers or {}
        raw = msg.raw_message
        is_jetstream = isinstance(getattr(raw, "reply", None), str) and raw.reply.startswith(
            "$JS.ACK."
        )
        with structlog.contextvars.bound_contextvars(
            event_id=headers.get("Nats-Msg-Id") or msg.message_id,
            event_type=headers.get(HEADER_TYPE),
            correlation_id=headers.get(HEADER_CORRELATION) or msg.correlation_id,
            subject=getattr(raw, "subject", None),
            delivery=raw.metadata.num_delivered if is_jetstream else None,
        ):
            try:
                return await call_next(msg)
            except Exception:
                # FastStream's own logger is off: this is where an escaped error is seen.
                _log.exception("message.failed")
                raise
