"""Log records an agent streams on ``<ns>.ingest.logs.<run_uuid>`` while a process runs."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import Payload

__all__ = ["LogBatch", "LogRecord"]


class LogRecord(Payload):
    seq: int = Field(ge=1, description="Per run attempt, from 1, without gaps.")
    at: datetime
    stream: str = Field(pattern="^(stdout|stderr|agent)$")
    line: str


class LogBatch(Payload):
    """Many lines per message (publishing one line per message would cap throughput)."""

    run_uuid: str
    attempt: int = Field(ge=1)
    records: list[LogRecord]
