"""Metric values on the wire: any double, NaN and the infinities included.

JSON has no literal for NaN or infinity, so payloads that carry metric values write them as
the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` (every finite value stays a JSON
number). Reading, a string that spells a number is accepted as that number.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, WithJsonSchema

__all__ = ["NON_FINITE_AS_STRINGS", "MetricValue"]

#: The model configuration that writes NaN and the infinities as strings in JSON.
NON_FINITE_AS_STRINGS = ConfigDict(ser_json_inf_nan="strings")

MetricValue = Annotated[
    float,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number"},
                {"type": "string", "enum": ["NaN", "Infinity", "-Infinity"]},
            ],
            "description": 'A number; NaN and the infinities as "NaN", "Infinity", "-Infinity".',
        }
    ),
]
