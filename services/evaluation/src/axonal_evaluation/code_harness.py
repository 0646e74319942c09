"""Runs a code evaluator inside its job, with the standard library only.

Reads ``payload.b64`` (base64 JSON: the evaluator's ``code`` and the ``variables``), calls
``evaluate(**variables)`` and writes ``{"score", "reasoning"}`` to the run's outputs file, or
``{"error"}`` with the traceback on stderr (then exits 1). Shipped as text into the job by the
evaluation service; never imported by it.
"""

from __future__ import annotations

import base64
import json
import math
import os
import sys
import traceback
from pathlib import Path
from typing import Any

PAYLOAD = "payload.b64"
OUTPUTS_ENV = "AXONAL_RUN_OUTPUTS_FILE"


def normalise(result: Any) -> dict[str, Any]:
    """``{score, reasoning}`` of what ``evaluate`` returned: a number or a boolean, a
    ``(score, reasoning)`` pair, or a mapping with ``score`` and ``reasoning``."""
    reasoning: Any = ""
    if isinstance(result, dict):
        if "score" not in result:
            raise TypeError("evaluate() returned a dict without a 'score' key")
        score, reasoning = result["score"], result.get("reasoning", "")
    elif isinstance(result, tuple) and len(result) == 2:
        score, reasoning = result
    else:
        score = result
    if isinstance(score, bool):
        score = float(score)
    if not isinstance(score, int | float) or not math.isfinite(score):
        raise TypeError(f"evaluate() returned {score!r} as the score, not a finite number")
    return {"score": float(score), "reasoning": str(reasoning)}


def evaluate(payload: dict[str, Any]) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "evaluator"}
    exec(compile(payload["code"], "evaluator.py", "exec"), namespace)  # noqa: S102 - its own job
    return normalise(namespace["evaluate"](**payload["variables"]))


def main() -> int:
    payload = json.loads(base64.b64decode(Path(PAYLOAD).read_text()))
    try:
        outputs, code = evaluate(payload), 0
    except Exception as exc:  # noqa: BLE001 - any failure of the user's code is the job's reason
        traceback.print_exc()
        outputs, code = {"error": f"{type(exc).__name__}: {exc}"}, 1
    Path(os.environ[OUTPUTS_ENV]).write_text(json.dumps(outputs))
    return code


if __name__ == "__main__":
    sys.exit(main())
