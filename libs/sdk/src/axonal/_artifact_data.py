"""Typed artifacts turned into a file's bytes and a small JSON summary (standard library only).

numpy arrays, pandas frames and PIL images are recognised by what they offer (``tolist``,
``to_csv``, ``save``), so none of those libraries is imported here.
"""

from __future__ import annotations

import csv
import io
import json
import math
import numbers
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_SUMMARY_BYTES",
    "Encoded",
    "confusion",
    "curve",
    "dataframe",
    "encode_png",
    "fit_summary",
    "histogram",
    "image",
    "text",
]

#: ``axonal_events.artifacts.MAX_SUMMARY_BYTES``: the summary travels in an HTTP header.
MAX_SUMMARY_BYTES = 8192
CURVE_SUMMARY_POINTS = 100
MAX_BINS = 10_000
_PNG = b"\x89PNG\r\n\x1a\n"
_MAGIC = ((_PNG, "png"), (b"\xff\xd8\xff", "jpeg"), (b"GIF87a", "gif"), (b"GIF89a", "gif"))
_SUFFIX = {"png": ".png", "jpeg": ".jpg", "gif": ".gif"}


@dataclass(frozen=True)
class Encoded:
    """What is uploaded: the bytes, the file suffix, and the record's summary."""

    data: bytes
    suffix: str
    summary: dict[str, Any]


def fit_summary(summary: dict[str, Any], fallback: dict[str, Any]) -> dict[str, Any]:
    """``summary`` when its JSON fits in :data:`MAX_SUMMARY_BYTES`, else ``fallback``."""
    return summary if len(_json(summary)) <= MAX_SUMMARY_BYTES else fallback


def text(value: str) -> Encoded:
    if not isinstance(value, str):
        raise TypeError(f"log_text takes a str, not {type(value).__name__}")
    return Encoded(value.encode(), ".txt", {"chars": len(value), "preview": value[:200]})


def image(data: object) -> Encoded:
    """A path, PNG/JPEG/GIF bytes, a PIL image, or an HxW / HxWxC array of pixels."""
    if isinstance(data, str | Path):
        data = Path(data).read_bytes()
    elif hasattr(data, "save") and type(data).__module__.startswith("PIL."):
        buffer = io.BytesIO()
        data.save(buffer, format="PNG")
        data = buffer.getvalue()
    elif not isinstance(data, bytes | bytearray | memoryview):
        data = encode_png(_as_list(data))
    raw = bytes(data)
    kind = next((name for magic, name in _MAGIC if raw.startswith(magic)), None)
    if kind is None:
        raise ValueError("log_image takes PNG, JPEG or GIF bytes, a path, a PIL image or pixels")
    summary: dict[str, Any] = {"format": kind}
    if kind == "png" and len(raw) >= 24:
        summary["width"], summary["height"] = struct.unpack(">II", raw[16:24])
    return Encoded(raw, _SUFFIX[kind], summary)


def encode_png(rows: Sequence[Sequence[Any]]) -> bytes:
    """An 8-bit PNG of ``rows`` of pixels: numbers (grey) or sequences of 1 to 4 channels
    (grey, grey+alpha, RGB, RGBA). Integers are taken in [0, 255], floats in [0, 1]."""
    if not rows or not rows[0]:
        raise ValueError("an image needs at least one row and one column")
    width, first = len(rows[0]), rows[0][0]
    channels = len(first) if isinstance(first, Sequence) else 1
    if channels not in (1, 2, 3, 4):
        raise ValueError(f"pixels have 1 to 4 channels, not {channels}")
    lines = []
    for row in rows:
        if len(row) != width:
            raise ValueError("every row of an image must have the same width")
        values = [_byte(v) for px in row for v in (px if isinstance(px, Sequence) else (px,))]
        if len(values) != width * channels:
            raise ValueError(f"every pixel must have {channels} channels")
        lines.append(b"\x00" + bytes(values))
    color = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    header = struct.pack(">IIBBBBB", width, len(rows), 8, color, 0, 0, 0)
    idat = zlib.compress(b"".join(lines), 6)
    return _PNG + _chunk(b"IHDR", header) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def _chunk(tag: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(tag + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", crc)


def _byte(value: Any) -> int:
    if isinstance(value, bool):
        return 255 if value else 0
    if isinstance(value, float):
        value = round(value * 255) if math.isfinite(value) else 0
    return min(255, max(0, int(value)))


def dataframe(frame: object) -> Encoded:
    """A pandas DataFrame (anything with ``to_csv``) or a list of dicts, as CSV."""
    if hasattr(frame, "to_csv"):
        body = str(frame.to_csv(index=False))
        columns = [str(c) for c in getattr(frame, "columns", [])]
        rows = len(frame)  # type: ignore[arg-type]
    elif isinstance(frame, list) and all(isinstance(r, Mapping) for r in frame):
        columns = list(dict.fromkeys(str(key) for row in frame for key in row))
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, restval="")
        writer.writeheader()
        writer.writerows({str(k): v for k, v in row.items()} for row in frame)
        body, rows = out.getvalue(), len(frame)
    else:
        raise TypeError("log_dataframe takes a pandas DataFrame or a list of dicts")
    summary = fit_summary({"rows": rows, "columns": columns}, {"rows": rows})
    return Encoded(body.encode(), ".csv", summary)


def histogram(values: object, bins: int = 30) -> Encoded:
    """Counts of ``values`` in ``bins`` equal bins between their min and max (numpy's rule)."""
    if isinstance(bins, bool) or not isinstance(bins, int) or not 1 <= bins <= MAX_BINS:
        raise ValueError(f"bins must be an integer from 1 to {MAX_BINS}, not {bins!r}")
    found = _finite(_flat(_as_list(values)), "histogram values")
    if not found:
        raise ValueError("a histogram needs at least one value")
    low, high = min(found), max(found)
    if low == high:
        low, high = low - 0.5, high + 0.5
    width = (high - low) / bins
    counts = [0] * bins
    for number in found:
        counts[min(int((number - low) / width), bins - 1)] += 1
    edges = [low + i * width for i in range(bins)] + [high]
    whole = {"bins": bins, "count": len(found), "min": low, "max": high}
    full = {**whole, "counts": counts, "edges": edges}
    return Encoded(_json(full).encode(), ".json", fit_summary(full, whole))


def curve(x: object, y: object, annotation: str | None = None) -> Encoded:
    """A curve (ROC, precision-recall...): the file keeps every point, the summary at most 100."""
    xs = _finite(_as_list(x), "x")
    ys = _finite(_as_list(y), "y")
    if not xs or len(xs) != len(ys):
        raise ValueError(
            f"x and y must be as long as each other and not empty ({len(xs)}, {len(ys)})"
        )
    full = {"x": xs, "y": ys, "annotation": annotation}
    picks = sorted(
        {round(i * (len(xs) - 1) / (CURVE_SUMMARY_POINTS - 1)) for i in range(CURVE_SUMMARY_POINTS)}
    )
    few = {"points": len(xs), "annotation": annotation}
    summary = {**few, "x": [xs[i] for i in picks], "y": [ys[i] for i in picks]}
    return Encoded(_json(full).encode(), ".json", fit_summary(summary, few))


def confusion(x_labels: object, y_labels: object, z: object) -> Encoded:
    """A matrix with one row per ``y_labels`` entry and one column per ``x_labels`` entry."""
    columns = [str(label) for label in _as_list(x_labels)]
    rows = [str(label) for label in _as_list(y_labels)]
    matrix = [_finite(_as_list(row), "z") for row in _as_list(z)]
    if len(matrix) != len(rows) or any(len(row) != len(columns) for row in matrix):
        raise ValueError(
            f"z must have {len(rows)} rows (y_labels) of {len(columns)} values (x_labels)"
        )
    full = {"x_labels": columns, "y_labels": rows, "z": matrix}
    summary = fit_summary(full, {"shape": [len(rows), len(columns)]})
    return Encoded(_json(full).encode(), ".json", summary)


def _as_list(values: object) -> list[Any]:
    """numpy arrays (and tensors) through ``tolist``; other iterables as they are."""
    if hasattr(values, "tolist"):
        values = values.tolist()
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"expected a sequence, not {type(values).__name__}")
    return list(values)


def _flat(values: list[Any]) -> list[Any]:
    flat: list[Any] = []
    for value in values:
        flat.extend(_flat(list(value)) if isinstance(value, list | tuple) else [value])
    return flat


def _finite(values: list[Any], what: str) -> list[float]:
    checked: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{what} must be numbers, not {value!r}")
        if not math.isfinite(value):
            raise ValueError(f"{what} must be finite, not {value!r}")
        checked.append(float(value))
    return checked


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
