"""Commands an agent accepts, on ``<ns>.cmd.agent.<queue>`` (one work queue per queue).

Stopping needs no command: the scheduler moves the run to ``stopping`` and the agent that
owns the process reacts to that event (and re-checks its runs when it restarts).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["ExecuteRun"]


class ExecuteRun(EventData):
    """Run one attempt of a compiled operation (a job: container command, args, env, init)."""

    type_name: ClassVar[str] = "agent.execute"

    run_uuid: str = Field(min_length=32, max_length=36)
    attempt: int = Field(ge=1)
    owner: str
    project: str
    name: str | None = None
    queue: str
    run: dict[str, Any] = Field(description="The compiled run section (kind job or service).")
    inputs: dict[str, Any] = Field(default_factory=dict)
    to_env: dict[str, str] = Field(default_factory=dict, description="Env vars from toEnv params.")
    timeout_seconds: float | None = Field(default=None, gt=0)
    ttl_seconds: float | None = Field(
        default=None, ge=0, description="Delete the attempt's folder this long after it ends."
    )
    probe: dict[str, Any] = Field(
        default_factory=dict,
        description="termination.probe: a service answers its http path (else a TCP connect).",
    )
    build: dict[str, Any] | None = Field(
        default=None,
        description="A builder run: the image to build and push (destination, context).",
    )

    def subject_id(self) -> str | None:
        return self.run_uuid
