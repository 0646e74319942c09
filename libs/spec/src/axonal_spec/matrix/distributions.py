"""The eight distribution kinds (continuous; only ``sample`` them).

``loguniform``/``qloguniform`` take ``low``/``high`` as natural-log exponents,
``exp(uniform(low, high))`` (the hyperopt convention Polyaxon follows); ``lognormal`` is
``exp(normal(loc, scale))``; the ``q*`` kinds round to a multiple of ``q``.
"""

from __future__ import annotations

import math
import random
from typing import Literal

from axonal_spec.matrix._base import HyperParamBase
from axonal_spec.matrix._spaces import NormalValue, QNormalValue, QUniformValue, UniformValue

__all__ = [
    "LogNormal",
    "LogUniform",
    "Normal",
    "QLogNormal",
    "QLogUniform",
    "QNormal",
    "QUniform",
    "Uniform",
]


def _quantize(x: float, q: float) -> float:
    return float(round(x / q) * q)


class _Distribution(HyperParamBase):
    is_distribution = True
    is_discrete = False


class Uniform(_Distribution):
    """Uniform over ``[low, high)``: ``"0:1"``, ``[0, 1]``, ``{low, high}``."""

    is_uniform = True

    kind: Literal["uniform"] = "uniform"
    value: UniformValue

    def sample(self, rng: random.Random) -> float:
        return rng.uniform(self.value.low, self.value.high)


class QUniform(_Distribution):
    """``round(uniform(low, high) / q) * q``: ``"0:1:0.1"``."""

    kind: Literal["quniform"] = "quniform"
    value: QUniformValue

    def sample(self, rng: random.Random) -> float:
        return _quantize(rng.uniform(self.value.low, self.value.high), self.value.q)


class LogUniform(_Distribution):
    """``exp(uniform(low, high))``: ``low``/``high`` are natural-log exponents."""

    kind: Literal["loguniform"] = "loguniform"
    value: UniformValue

    def sample(self, rng: random.Random) -> float:
        return math.exp(rng.uniform(self.value.low, self.value.high))


class QLogUniform(_Distribution):
    """``round(exp(uniform(low, high)) / q) * q``."""

    kind: Literal["qloguniform"] = "qloguniform"
    value: QUniformValue

    def sample(self, rng: random.Random) -> float:
        return _quantize(math.exp(rng.uniform(self.value.low, self.value.high)), self.value.q)


class Normal(_Distribution):
    """Gaussian ``normal(loc, scale)``: ``"0:1"``, ``[0, 1]``, ``{loc, scale}``."""

    kind: Literal["normal"] = "normal"
    value: NormalValue

    def sample(self, rng: random.Random) -> float:
        return rng.gauss(self.value.loc, self.value.scale)


class QNormal(_Distribution):
    """``round(normal(loc, scale) / q) * q``: ``"0:1:0.5"``."""

    kind: Literal["qnormal"] = "qnormal"
    value: QNormalValue

    def sample(self, rng: random.Random) -> float:
        return _quantize(rng.gauss(self.value.loc, self.value.scale), self.value.q)


class LogNormal(_Distribution):
    """``exp(normal(loc, scale))``."""

    kind: Literal["lognormal"] = "lognormal"
    value: NormalValue

    def sample(self, rng: random.Random) -> float:
        return rng.lognormvariate(self.value.loc, self.value.scale)


class QLogNormal(_Distribution):
    """``round(exp(normal(loc, scale)) / q) * q``."""

    kind: Literal["qlognormal"] = "qlognormal"
    value: QNormalValue

    def sample(self, rng: random.Random) -> float:
        return _quantize(rng.lognormvariate(self.value.loc, self.value.scale), self.value.q)
