"""Resources a run asks for, the slots an agent lends out (cpu cores, memory bytes, gpus) and
the limits a run's process is held to."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_REQUEST",
    "Limits",
    "Resources",
    "SlotLedger",
    "format_memory",
    "parse_cpu",
    "parse_memory",
    "pick_cores",
    "run_limits",
    "run_resources",
]

_MEMORY_UNITS = {
    "": 1,
    "k": 10**3,
    "m": 10**6,
    "g": 10**9,
    "t": 10**12,
    "p": 10**15,
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
    "pi": 2**50,
}
_QUANTITY = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([a-z]*)\s*$", re.IGNORECASE)
_GPU_KEYS = ("gpu", "nvidia.com/gpu", "amd.com/gpu")


@dataclass(frozen=True, slots=True)
class Resources:
    """An amount of cpu (cores), memory (bytes) and gpu (devices)."""

    cpu: float = 0.0
    memory: float = 0.0
    gpu: float = 0.0

    def __add__(self, other: Resources) -> Resources:
        return Resources(self.cpu + other.cpu, self.memory + other.memory, self.gpu + other.gpu)

    def __sub__(self, other: Resources) -> Resources:
        return Resources(self.cpu - other.cpu, self.memory - other.memory, self.gpu - other.gpu)

    def fits_in(self, other: Resources) -> bool:
        eps = 1e-9
        return (
            self.cpu <= other.cpu + eps
            and self.memory <= other.memory + eps
            and self.gpu <= other.gpu + eps
        )

    def as_dict(self) -> dict[str, float]:
        return {"cpu": self.cpu, "memory": self.memory, "gpu": self.gpu}


#: What a run that declares nothing is assumed to need.
DEFAULT_REQUEST = Resources(cpu=0.1, memory=64 * 2**20, gpu=0)


def parse_cpu(value: Any) -> float:
    """``"500m"`` -> 0.5, ``"2"``/2 -> 2.0 (Kubernetes cpu quantities)."""
    text = str(value).strip()
    try:
        return float(text[:-1]) / 1000 if text.endswith("m") else float(text)
    except ValueError:
        raise ValueError(f"not a cpu quantity: {value!r}") from None


def parse_memory(value: Any) -> float:
    """``"1Gi"`` -> 1073741824, ``"500M"`` -> 5e8, ``1024`` -> 1024 (bytes)."""
    match = _QUANTITY.match(str(value))
    if not match or match.group(2).lower() not in _MEMORY_UNITS:
        raise ValueError(f"not a memory quantity: {value!r}")
    return float(match.group(1)) * _MEMORY_UNITS[match.group(2).lower()]


def format_memory(size: int) -> str:
    """Bytes in the largest unit that divides them: 268435456 -> ``"256Mi"``, 5e8 -> ``"500M"``."""
    units = sorted(_MEMORY_UNITS.items(), key=lambda unit: -unit[1])
    suffix, factor = next((u, f) for u, f in units if size % f == 0)
    return f"{size // factor}{suffix if suffix == 'k' else suffix.capitalize()}"


def _section(resources: dict[str, Any], name: str) -> dict[str, Any]:
    section = resources.get(name)
    return section if isinstance(section, dict) else {}


def run_resources(run: dict[str, Any]) -> Resources:
    """What a compiled run needs: its container's requests, else its limits, else defaults.

    Raises ``ValueError`` on a quantity that cannot be read.
    """
    container = run.get("container")
    resources = container.get("resources") if isinstance(container, dict) else None
    if not isinstance(resources, dict):
        return DEFAULT_REQUEST
    sections = {name: _section(resources, name) for name in ("requests", "limits")}

    def pick(default: float, parse: Callable[[Any], float], *keys: str) -> float:
        for name, section in sections.items():
            for key in keys:
                if section.get(key) is not None:
                    return _read(f"{name}.{key}", section[key], parse)
        return default

    return Resources(
        cpu=pick(DEFAULT_REQUEST.cpu, parse_cpu, "cpu"),
        memory=pick(DEFAULT_REQUEST.memory, parse_memory, "memory"),
        gpu=pick(DEFAULT_REQUEST.gpu, float, *_GPU_KEYS),
    )


def _read(name: str, value: Any, parse: Callable[[Any], float]) -> float:
    """A quantity, or ``ValueError`` naming the field."""
    try:
        return parse(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Limits:
    """The most a run's process may use: cpu cores and memory bytes (``None``: not limited)."""

    cpu: float | None = None
    memory: int | None = None


def run_limits(run: dict[str, Any]) -> Limits | None:
    """The cpu and memory of a compiled run's ``container.resources.limits`` (``None``: neither).

    Raises ``ValueError`` naming the field on a quantity that cannot be read, is not finite
    or is not more than 0.
    """
    container = run.get("container")
    resources = container.get("resources") if isinstance(container, dict) else None
    limits = _section(resources, "limits") if isinstance(resources, dict) else {}
    cpu, memory = limits.get("cpu"), limits.get("memory")
    if cpu is None and memory is None:
        return None
    return Limits(
        cpu=None if cpu is None else _positive("limits.cpu", cpu, parse_cpu),
        memory=None
        if memory is None
        else math.ceil(_positive("limits.memory", memory, parse_memory)),
    )


def _positive(name: str, value: Any, parse: Callable[[Any], float]) -> float:
    amount = _read(name, value, parse)
    if not math.isfinite(amount) or amount <= 0:
        raise ValueError(f"{name}: must be a finite quantity more than 0, not {value!r}")
    return amount


def pick_cores(cpu: float, available: Iterable[int], load: Mapping[int, int]) -> list[int]:
    """The cores a process limited to ``cpu`` may run on: ``ceil(cpu)`` of them, at least 1
    and at most all ``available``, the least loaded first (``load``: processes per core)."""
    ranked = sorted(available, key=lambda core: (load.get(core, 0), core))
    return sorted(ranked[: max(1, math.ceil(cpu))])


@dataclass
class SlotLedger:
    """The agent's capacity and who holds which part of it."""

    capacity: Resources
    held: dict[str, Resources] = field(default_factory=dict)

    @property
    def used(self) -> Resources:
        total = Resources()
        for amount in self.held.values():
            total = total + amount
        return total

    @property
    def free(self) -> Resources:
        return self.capacity - self.used

    def reserve(self, key: str, need: Resources) -> bool:
        """Hold ``need`` for ``key`` if it fits in what is free now (idempotent per key)."""
        if key in self.held:
            return True
        if not need.fits_in(self.free):
            return False
        self.held[key] = need
        return True

    def release(self, key: str) -> None:
        self.held.pop(key, None)
