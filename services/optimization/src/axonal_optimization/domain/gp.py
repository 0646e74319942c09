"""Polyaxon's bayes model: a scikit-learn Gaussian process and its acquisition function.

As in Polyaxon's tuner (``hypertune``): the kernel is ``Matern(lengthScale, nu)`` or
``RBF(lengthScale)``, its hyperparameters fitted with ``numRestartsOptimizer`` restarts; the
acquisition is ``ucb`` (``mean + kappa std``), ``ei`` or ``poi`` (improvement over the best
value plus ``eps``), maximised over ``numWarmup`` random points, then by L-BFGS-B from
``numIterations`` random starts. Points live in the unit cube and values are maximised.
Unlike Polyaxon: the values are standardised before the fit and the kernel has a fitted
amplitude, so a metric of any scale fits (predictions are in metric units again, so ``kappa``
and ``eps`` keep their meaning); the length scale stays within ``[0.05, 20]`` of the unit cube
(unbounded, the fit often collapses onto white noise and the search becomes random); and a
small nugget (``alpha=1e-6``) keeps repeated points from breaking the fit.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.linalg import solve_triangular
from scipy.optimize import minimize
from scipy.special import ndtr
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, Matern
from threadpoolctl import threadpool_limits

__all__ = ["Utility", "suggest"]

Array = NDArray[np.float64]

_NUGGET = 1e-6
_LENGTH_BOUNDS = (0.05, 20.0)  # in the unit cube; below, the fit collapses onto white noise
_AMPLITUDE_BOUNDS = (1e-2, 1e2)  # of standardised values
_MIN_STD = 1e-12


@dataclass(frozen=True)
class Utility:
    """``matrix.utilityFunction`` with Polyaxon's defaults; without one, ``ucb`` with
    ``kappa = 2.576`` (the usual 99 % bound). ``numWarmup`` defaults to 1000 random points
    (Polyaxon: 5) and ``numIterations`` to 10 L-BFGS-B starts (Polyaxon's)."""

    acquisition: str = "ucb"
    kappa: float = 2.576
    eps: float = 0.0
    kernel: str = "matern"
    length_scale: float = 1.0
    nu: float = 1.5
    restarts: int = 0
    num_warmup: int = 1000
    num_iterations: int = 10

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Utility:
        """From the search space's ``utilityFunction`` (camelCase, unset fields omitted)."""
        data = data or {}
        process = data.get("gaussianProcess") or {}
        found = {
            "acquisition": data.get("acquisitionFunction"),
            "kappa": data.get("kappa"),
            "eps": data.get("eps"),
            "kernel": process.get("kernel"),
            "length_scale": process.get("lengthScale"),
            "nu": process.get("nu"),
            "restarts": process.get("numRestartsOptimizer"),
            "num_warmup": data.get("numWarmup"),
            "num_iterations": data.get("numIterations"),
        }
        return cls(**{key: value for key, value in found.items() if value is not None})


class _Posterior:
    """A GP fitted to standardised values; predicts in the values' units.

    It predicts from the fitted model's public attributes (``kernel_``, ``L_``, ``alpha_``):
    ``predict`` spends most of its time validating its input, which the acquisition
    maximiser calls thousands of times with one point.
    """

    def __init__(self, x: Array, y: Array, utility: Utility, seed: int) -> None:
        self.center = float(y.mean())
        self.scale = float(y.std()) or 1.0
        length = {"length_scale": utility.length_scale, "length_scale_bounds": _LENGTH_BOUNDS}
        shape = RBF(**length) if utility.kernel == "rbf" else Matern(**length, nu=utility.nu)
        self.model = GaussianProcessRegressor(
            kernel=ConstantKernel(1.0, _AMPLITUDE_BOUNDS) * shape,
            alpha=_NUGGET,
            n_restarts_optimizer=utility.restarts,
            random_state=seed,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.model.fit(x, (y - self.center) / self.scale)

    def predict(self, x: Array) -> tuple[Array, Array]:
        """The mean and standard deviation at each row of ``x``."""
        kernel, train = self.model.kernel_, self.model.X_train_
        cross = kernel(x, train)
        solved = solve_triangular(self.model.L_, cross.T, lower=True, check_finite=False)
        variance = np.maximum(kernel.diag(x) - np.einsum("ij,ij->j", solved, solved), 0.0)
        mean = self.center + self.scale * (cross @ self.model.alpha_)
        return mean, self.scale * np.sqrt(variance)


def _acquisition(posterior: _Posterior, x: Array, best: float, u: Utility) -> Array:
    mean, std = posterior.predict(x)
    if u.acquisition == "ucb":
        return mean + u.kappa * std
    std = np.maximum(std, _MIN_STD)
    gain = mean - best - u.eps
    z = gain / std
    if u.acquisition == "poi":
        return np.asarray(ndtr(z), dtype=np.float64)
    density = np.exp(-0.5 * z**2) / math.sqrt(2 * math.pi)
    return np.asarray(gain * ndtr(z) + std * density, dtype=np.float64)


def suggest(x: Array, y: Array, utility: Utility, rng: np.random.RandomState) -> Array:
    """The point of the unit cube that maximises the acquisition of a GP fitted to
    ``(x, y)`` (``y`` is maximised)."""
    with threadpool_limits(limits=1):  # BLAS threads only fight over matrices this small
        return _suggest(x, y, utility, rng)


def _suggest(x: Array, y: Array, utility: Utility, rng: np.random.RandomState) -> Array:
    posterior = _Posterior(x, y, utility, seed=int(rng.randint(2**31 - 1)))
    best, dims = float(y.max()), x.shape[1]
    tries = rng.uniform(size=(max(1, utility.num_warmup), dims))
    scores = _acquisition(posterior, tries, best, utility)
    point, score = tries[int(scores.argmax())], float(scores.max())
    for start in rng.uniform(size=(utility.num_iterations, dims)):
        result = minimize(
            lambda p: -_acquisition(posterior, p.reshape(1, -1), best, utility)[0],
            start,
            bounds=[(0.0, 1.0)] * dims,
            method="L-BFGS-B",
        )
        if result.success and -float(result.fun) >= score:
            point, score = result.x, -float(result.fun)
    return np.clip(np.asarray(point, dtype=np.float64), 0.0, 1.0)
