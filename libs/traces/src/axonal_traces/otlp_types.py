"""Which observation type a span is, in Langfuse's priority order (``ObservationTypeMapper``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_events.traces import ObservationType as T

__all__ = ["MODEL_KEYS", "infer_type"]

#: Attributes naming a model, first match wins.
MODEL_KEYS = (
    "langfuse.observation.model.name",
    "gen_ai.response.model",
    "ai.model.id",
    "gen_ai.request.model",
    "llm.response.model",
    "llm.model_name",
    "model",
)
_GENERATION_HINTS = (
    "langfuse.observation.model.name",
    "langfuse.observation.usage_details",
    "langfuse.observation.cost_details",
    "langfuse.observation.completion_start_time",
    "langfuse.observation.model.parameters",
    "langfuse.observation.prompt.name",
)
_OPENINFERENCE = {"LLM": T.GENERATION} | {
    kind.value: kind
    for kind in (T.CHAIN, T.RETRIEVER, T.EMBEDDING, T.AGENT, T.TOOL, T.GUARDRAIL, T.EVALUATOR)
}
_GEN_AI_OPERATIONS = {
    "chat": T.GENERATION,
    "completion": T.GENERATION,
    "text_completion": T.GENERATION,
    "generate_content": T.GENERATION,
    "generate": T.GENERATION,
    "embeddings": T.EMBEDDING,
    "invoke_agent": T.AGENT,
    "create_agent": T.AGENT,
    "execute_tool": T.TOOL,
}
_TYPES = dict(T.__members__)
_GENKIT = {"tool": T.TOOL, "model": T.GENERATION, "embedder": T.EMBEDDING, "retriever": T.RETRIEVER}
_VERCEL = {
    "ai.generateText": T.GENERATION,
    "ai.streamText": T.GENERATION,
    "ai.generateObject": T.GENERATION,
    "ai.streamObject": T.GENERATION,
    "ai.embed": T.EMBEDDING,
    "ai.embedMany": T.EMBEDDING,
    "ai.toolCall": T.TOOL,
}


def _old_python_sdk(scope_name: str, scope_version: str) -> bool:
    """Python SDK <= 3.3 sent generations as ``span`` (fixed on the server, rule 0)."""
    if scope_name != "langfuse-sdk":
        return False
    parts = scope_version.split(".")
    try:
        major, minor = int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        return False
    return major < 3 or (major == 3 and minor <= 3)


def _vercel(attrs: Mapping[str, Any]) -> T | None:
    operation = attrs.get("ai.operationId")
    if not isinstance(operation, str):
        return None
    base = operation.removesuffix(".doGenerate").removesuffix(".doStream")
    base = base.removesuffix(".doEmbed")
    return _VERCEL.get(base)


def _lookup(table: Mapping[str, T], value: Any, *, upper: bool = False) -> T | None:
    if not isinstance(value, str):
        return None
    return table.get(value.upper() if upper else value)


def infer_type(attrs: Mapping[str, Any], scope_name: str = "", scope_version: str = "") -> T:
    """The observation type of a span with attributes ``attrs``."""
    direct = str(attrs.get("langfuse.observation.type") or "").upper()
    if (
        direct == "SPAN"
        and _old_python_sdk(scope_name, scope_version)
        and any(key in attrs for key in _GENERATION_HINTS)
    ):
        return T.GENERATION
    operation = attrs.get("gen_ai.operation.name")
    found = (
        _TYPES.get(direct)
        or _lookup(_OPENINFERENCE, attrs.get("openinference.span.kind"), upper=True)
        or _lookup(_GEN_AI_OPERATIONS, operation.lower() if isinstance(operation, str) else None)
        or _lookup(_GENKIT, attrs.get("genkit:metadata:subtype"))
        or _vercel(attrs)
    )
    if found is not None:
        return found
    if attrs.get("gen_ai.tool.name"):  # pydantic-ai and other gen_ai tool spans
        return T.TOOL
    if any(map(attrs.get, MODEL_KEYS)):
        return T.GENERATION
    return T.SPAN
