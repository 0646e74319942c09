"""The matrix kinds (``matrix.kind``): fan-outs expanded up front and adaptive searches.

``grid``, ``random`` and ``mapping`` are expanded when the operation is compiled
(:func:`axonal_spec.matrix.expand`); ``bayes``, ``hyperband``, ``tpe`` and ``iterative`` are
adaptive: the optimization service suggests their runs iteration by iteration from
:func:`axonal_spec.matrix.search_space`. ``kind: hyperopt`` (Polyaxon <= 2.16) is read as
``tpe`` and keeps its ``algorithm`` (``tpe``, ``rand`` or ``anneal``).

Rules (Polyaxon's, located at the offending param, e.g. ``matrix.params.lr``): grid search
takes no distributions (``pchoice`` included); bayes takes no non-uniform distribution;
``acquisitionFunction: ucb`` (the default) needs ``kappa``, ``ei``/``poi`` need ``eps``;
``numRuns``, ``numInitialRuns``, ``concurrency`` and ``maxIterations`` are >= 1.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictStr,
    Tag,
    field_validator,
    model_validator,
)

from axonal_spec.base import SpecModel
from axonal_spec.matrix._numbers import LenientFloat, LenientInt, PositiveInt, lower
from axonal_spec.matrix._union import kind_discriminator
from axonal_spec.matrix.early_stopping import EarlyStopping, Optimization
from axonal_spec.matrix.hyperparams import HyperParam, HyperParamBase

__all__ = [
    "MATRIX_KINDS",
    "AnyMatrix",
    "BayesMatrix",
    "GaussianProcess",
    "GridMatrix",
    "HyperbandMatrix",
    "IterativeMatrix",
    "MappingMatrix",
    "Matrix",
    "OptimizationMetric",
    "OptimizationResource",
    "RandomMatrix",
    "TpeMatrix",
    "Tuner",
    "UtilityFunction",
]

_DISCRETE_KINDS = "choice, range, linspace, logspace, geomspace, daterange or datetimerange"


def _discrete_only(param: HyperParamBase) -> HyperParamBase:
    if param.is_distribution:
        raise ValueError(
            f"`{param.kind}` is a distribution, which grid search cannot enumerate "
            f"(use {_DISCRETE_KINDS})"
        )
    return param


def _no_skewed_distribution(param: HyperParamBase) -> HyperParamBase:
    if param.is_distribution and not param.is_uniform:
        raise ValueError(
            f"`{param.kind}` is a non-uniform distribution, which bayesian optimization "
            f"cannot use (use uniform or {_DISCRETE_KINDS})"
        )
    return param


GridParam = Annotated[HyperParam, AfterValidator(_discrete_only)]
BayesParam = Annotated[HyperParam, AfterValidator(_no_skewed_distribution)]
_Params = Annotated[dict[str, HyperParam], Field(min_length=1)]


class OptimizationMetric(SpecModel):
    """The metric a search optimizes; unset ``optimization`` means ``maximize``."""

    name: StrictStr
    optimization: Optimization | None = None


class OptimizationResource(SpecModel):
    """The resource hyperband allocates (e.g. ``num_epochs`` of type ``int``)."""

    name: StrictStr
    type: Annotated[Literal["int", "float"], BeforeValidator(lower)] | None = None


class Tuner(SpecModel):
    """The component that suggests the next runs of an adaptive search."""

    hub_ref: StrictStr
    presets: list[StrictStr] | None = None
    queue: StrictStr | None = None
    namespace: StrictStr | None = None
    params: dict[str, Any] | None = None


class GaussianProcess(SpecModel):
    """The bayes regression model (Polyaxon's defaults)."""

    kernel: Annotated[Literal["matern", "rbf"], BeforeValidator(lower)] = "matern"
    length_scale: LenientFloat = 1.0
    nu: LenientFloat = 1.5
    num_restarts_optimizer: LenientInt = 0


class UtilityFunction(SpecModel):
    """The bayes acquisition: ``ucb`` (default, needs ``kappa``), ``ei``/``poi`` (``eps``)."""

    acquisition_function: Annotated[Literal["ucb", "ei", "poi"], BeforeValidator(lower)] = "ucb"
    gaussian_process: GaussianProcess | None = None
    kappa: LenientFloat | None = None
    eps: LenientFloat | None = None
    num_warmup: LenientInt | None = None
    num_iterations: LenientInt | None = None

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.acquisition_function == "ucb" and self.kappa is None:
            raise ValueError("the acquisition function `ucb` needs `kappa`")
        if self.acquisition_function in ("ei", "poi") and self.eps is None:
            raise ValueError(f"the acquisition function `{self.acquisition_function}` needs `eps`")
        return self


class _Matrix(SpecModel):
    is_adaptive: ClassVar[bool] = False

    kind: str
    concurrency: PositiveInt | None = None
    early_stopping: list[EarlyStopping] | None = None


class GridMatrix(_Matrix):
    """Every combination of the params, in the order written; ``numRuns`` truncates."""

    kind: Literal["grid"] = "grid"
    params: Annotated[dict[str, GridParam], Field(min_length=1)]
    num_runs: PositiveInt | None = None


class RandomMatrix(_Matrix):
    """``numRuns`` distinct random draws from the params."""

    kind: Literal["random"] = "random"
    params: _Params
    num_runs: PositiveInt
    seed: LenientInt | None = None


class MappingMatrix(_Matrix):
    """One run per mapping in ``values`` (their keys are the params)."""

    kind: Literal["mapping"] = "mapping"
    values: Annotated[list[dict[str, Any]], Field(min_length=1)]


class _AdaptiveMatrix(_Matrix):
    is_adaptive = True

    seed: LenientInt | None = None
    tuner: Tuner | None = None


class BayesMatrix(_AdaptiveMatrix):
    """Bayesian optimization: ``numInitialRuns`` random runs, then ``maxIterations`` rounds."""

    kind: Literal["bayes"] = "bayes"
    params: Annotated[dict[str, BayesParam], Field(min_length=1)]
    num_initial_runs: PositiveInt
    max_iterations: PositiveInt
    metric: OptimizationMetric
    utility_function: UtilityFunction | None = None


class HyperbandMatrix(_AdaptiveMatrix):
    """Hyperband: brackets of successive halving over ``resource``, at most ``maxIterations``."""

    kind: Literal["hyperband"] = "hyperband"
    params: dict[str, HyperParam] | None = None
    max_iterations: PositiveInt | None = None
    eta: LenientFloat | None = None
    resource: OptimizationResource | None = None
    metric: OptimizationMetric | None = None
    resume: bool | None = None

    @field_validator("eta")
    @classmethod
    def _eta(cls, eta: float | None) -> float | None:
        if eta is not None and eta <= 1:
            raise ValueError(f"eta must be > 1 (the downsampling factor), got {eta:g}")
        return eta


class TpeMatrix(_AdaptiveMatrix):
    """Tree-structured Parzen estimators (``kind: hyperopt`` is read as this)."""

    kind: Literal["tpe", "hyperopt"] = "tpe"
    params: _Params
    metric: OptimizationMetric
    num_runs: PositiveInt | None = None
    max_iterations: PositiveInt | None = None
    algorithm: Annotated[Literal["tpe", "rand", "anneal"], BeforeValidator(lower)] | None = None

    @field_validator("kind")
    @classmethod
    def _hyperopt_is_tpe(cls, kind: str) -> str:
        return "tpe"

    @field_validator("algorithm")
    @classmethod
    def _no_anneal(cls, algorithm: str | None) -> str | None:
        if algorithm == "anneal":
            raise ValueError("`anneal` has no Optuna equivalent: use `tpe` or `rand`")
        return algorithm


class IterativeMatrix(_AdaptiveMatrix):
    """A custom tuner loop of at most ``maxIterations`` iterations. ``metric`` is Axonal's
    addition (Polyaxon's iterative has none): each trial's value, and the best trial."""

    kind: Literal["iterative"] = "iterative"
    max_iterations: PositiveInt
    params: dict[str, HyperParam] | None = None
    metric: OptimizationMetric | None = None


AnyMatrix = (
    GridMatrix
    | RandomMatrix
    | MappingMatrix
    | BayesMatrix
    | HyperbandMatrix
    | TpeMatrix
    | IterativeMatrix
)
"""Any parsed matrix (for annotations of values, not of fields)."""

MATRIX_KINDS = ("grid", "random", "mapping", "bayes", "hyperband", "tpe", "iterative")

Matrix = Annotated[
    Annotated[GridMatrix, Tag("~grid")]
    | Annotated[RandomMatrix, Tag("~random")]
    | Annotated[MappingMatrix, Tag("~mapping")]
    | Annotated[BayesMatrix, Tag("~bayes")]
    | Annotated[HyperbandMatrix, Tag("~hyperband")]
    | Annotated[TpeMatrix, Tag("~tpe")]
    | Annotated[IterativeMatrix, Tag("~iterative")],
    kind_discriminator("matrix", MATRIX_KINDS, aliases={"hyperopt": "tpe"}),
]
"""The ``matrix`` field type: ``matrix: Matrix | None = None``."""
