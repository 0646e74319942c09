"""Effects outside the bus and the database: asking an LLM provider to judge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["Judge", "JudgeCall", "Judged", "ProviderBusy", "ProviderRefused"]


@dataclass(frozen=True)
class JudgeCall:
    """One structured-output request: the connection's details, the model, the prompt."""

    adapter: str
    secret_key: str
    base_url: str | None
    model: str
    prompt: str
    schema: dict[str, Any]
    extra_headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Judged:
    """The provider's answer: ``answer`` parsed (``None`` if not JSON), ``raw`` as sent."""

    answer: Any
    raw: str
    input_tokens: int
    output_tokens: int


class ProviderBusy(Exception):
    """429 or 5xx: worth asking again, after ``retry_after`` seconds when the provider said."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ProviderRefused(Exception):
    """Any other refusal (bad key, unknown model): asking again will not help."""


class Judge(Protocol):
    async def judge(self, call: JudgeCall) -> Judged: ...
