"""The behaviour every hyperparameter kind shares (flags, values, sampling, search space)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from axonal_spec.base import SpecModel

__all__ = ["HyperParamBase"]


class HyperParamBase(SpecModel):
    """What every kind answers; the flags mirror Polyaxon's."""

    is_distribution: ClassVar[bool] = False
    is_discrete: ClassVar[bool] = True
    is_uniform: ClassVar[bool] = False

    kind: str

    @property
    def is_continuous(self) -> bool:
        return not self.is_discrete

    def size(self) -> int:
        """How many values a discrete kind enumerates."""
        raise TypeError(f"`{self.kind}` is a distribution: it has no finite set of values")

    def value_at(self, index: int) -> Any:
        """The ``index``-th of ``values()`` without computing the others."""
        raise TypeError(f"`{self.kind}` is a distribution: sample it instead")

    def values(self) -> list[Any]:
        """Every value of a discrete kind, in order (distributions raise ``TypeError``)."""
        return [self.value_at(i) for i in range(self.size())]

    def sample(self, rng: random.Random) -> Any:
        """One value drawn with ``rng`` (uniformly among the values of a discrete kind)."""
        return self.value_at(rng.randrange(self.size()))

    def to_search_space(self) -> dict[str, Any]:
        """A plain JSON description: ``{"kind": ..., <parameters>}``."""
        value = getattr(self, "value", None)
        params = value.model_dump(mode="json") if isinstance(value, SpecModel) else {}
        return {"kind": self.kind, **params}
