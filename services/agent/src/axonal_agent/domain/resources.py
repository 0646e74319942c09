"""Resources a run asks for and the slots an agent lends out (cpu cores, memory bytes, gpus)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_REQUEST",
    "Resources",
    "SlotLedger",
    "parse_cpu",
    "parse_memory",
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
    if text.endswith("m"):
        return float(text[:-1]) / 1000
    return float(text)


def parse_memory(value: Any) -> float:
    """``"1Gi"`` -> 1073741824, ``"500M"`` -> 5e8, ``1024`` -> 1024 (bytes)."""
    match = _QUANTITY.match(str(value))
    if not match or match.group(2).lower() not in _MEMORY_UNITS:
        raise ValueError(f"not a memory quantity: {value!r}")
    return float(match.group(1)) * _MEMORY_UNITS[match.group(2).lower()]


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
    requests, limits = _section(resources, "requests"), _section(resources, "limits")

    def pick(*keys: str) -> Any:
        for section in (requests, limits):
            for key in keys:
                if section.get(key) is not None:
                    return section[key]
        return None

    cpu, memory, gpu = pick("cpu"), pick("memory"), pick(*_GPU_KEYS)
    return Resources(
        cpu=DEFAULT_REQUEST.cpu if cpu is None else parse_cpu(cpu),
        memory=DEFAULT_REQUEST.memory if memory is None else parse_memory(memory),
        gpu=DEFAULT_REQUEST.gpu if gpu is None else float(gpu),
    )


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
