"""What the platform does with every field of a polyaxonfile: THE table of support.

Each field path (camelCase, as written in a file; ``*`` stands for any key of a mapping, or for
the keys a model keeps as written, such as a container's other Kubernetes fields) is either
:class:`Executed` by a part of the platform, or :class:`Ignored` by the local agent, with the
reason shown in the warning. A path below an ignored one is ignored with it. Model fields
without a row and without an ignored ancestor fail ``tests/unit/spec/test_support.py``.

Paths are those of the root document: a nested polyaxonfile (:data:`NESTED`) is read with the
same rows, and the root shortcuts (:data:`SHORTCUTS`) with the rows of the ``run`` field they
are lowered into. :mod:`axonal_spec.support_check` turns the ignored fields a document sets
into warnings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["LOCAL", "NESTED", "SHORTCUTS", "SUPPORT", "Executed", "Ignored", "Support"]

#: The agent the table describes (the only executor there is today).
LOCAL = "local"

#: Who carries a field out: the compiler, the scheduler, the local agent's executor, the
#: optimization service (adaptive matrices), or nobody because it only documents.
Part = Literal["compiler", "scheduler", "agent", "optimization", "docs"]


@dataclass(frozen=True)
class Executed:
    """The field has an executing path, in these parts."""

    by: tuple[Part, ...]


@dataclass(frozen=True)
class Ignored:
    """The local agent does not carry the field out; ``reason`` says why or what happens."""

    reason: str


Support = Executed | Ignored

#: Fields holding polyaxonfiles, read with the rows of the root.
NESTED = frozenset({"component", "run.operations", "run.components"})
#: Root shortcuts and the ``run`` field the compiler lowers each into.
SHORTCUTS = {
    name: f"run.{name}"
    for name in ("container", "environment", "init", "connections", "sidecars", "volumes", "ports")
}

SUPPORT: dict[str, Support] = {}


def _rows(support: Support, paths: str, *, under: str = "") -> None:
    """Classify the space-separated ``paths`` (each below ``under``, when given)."""
    for name in paths.split():
        path = f"{under}.{name}" if under else name
        if path in SUPPORT:
            raise ValueError(f"{path} is classified twice")
        SUPPORT[path] = support


def _by(*parts: Part) -> Executed:
    return Executed(parts)


_K8S = "a Kubernetes setting; a local run is a process on the agent's host"
_CLUSTER = "distributed kinds need Kubernetes operators; the local agent runs `run.container`"
_NO_CONNECTIONS = "connections are not mounted or injected into local runs"
_NAMESPACE = "runs are not placed in a Kubernetes namespace"

# The file, its identity and how it is composed.
_rows(_by("compiler"), "version kind strictParams hubRef dagRef urlRef pathRef")
_rows(_by("compiler"), "runPatch patchStrategy isPreset")
_rows(_by("compiler", "scheduler"), "component name description tags")
_rows(_by("docs"), "template.description")
_rows(
    Ignored("a template file is not refused: it runs as it is"), "enabled fields", under="template"
)
_rows(Ignored("named presets are not looked up; pass preset files with --preset"), "presets")
_rows(Ignored(_NAMESPACE), "namespace")
_rows(Ignored("run costs are not recorded"), "cost")
_rows(Ignored("local paths are not uploaded before the run"), "mount")

# Operation fields.
_rows(_by("scheduler"), "queue isApproved dependencies trigger conditions skipOnUpstreamSkip")
_rows(_by("compiler"), "value contextOnly", under="params.*")
_rows(_by("compiler", "scheduler"), "params.*.ref")
_rows(_by("scheduler", "agent"), "params.*.toEnv")
_rows(Ignored(_NO_CONNECTIONS), "params.*.connection")
_rows(Ignored("a param is not copied by an init container"), "params.*.toInit")
_rows(
    _by("scheduler"),
    "kind cron frequency startAt endAt maxRuns dependsOnPast timezone catchup",
    under="schedule",
)
_rows(_by("compiler", "scheduler"), "events events.kinds events.ref")
_rows(_by("compiler", "scheduler"), "joins")
_rows(_by("scheduler"), "query sort limit offset params", under="joins")
_rows(_by("scheduler"), "value contextOnly", under="joins.params.*")
_rows(Ignored(_NO_CONNECTIONS), "joins.params.*.connection")
_rows(Ignored("a param is not copied by an init container"), "joins.params.*.toInit")
_rows(Ignored("a join's values are params, not environment variables"), "joins.params.*.toEnv")
_rows(Ignored("a join selects among its own project's runs"), "joins.ref")
_rows(_by("compiler", "scheduler"), "build build.hubRef build.params build.queue")
_rows(_by("compiler"), "value contextOnly", under="build.params.*")
_rows(
    Ignored("a builder's params are values"), "ref toEnv toInit connection", under="build.params.*"
)
_rows(
    Ignored("a builder run takes its component, params and queue only"),
    "connection presets namespace cache runPatch patchStrategy",
    under="build",
)
_rows(_by("scheduler"), "cache.disable")
_rows(Ignored("cache entries do not expire"), "cache.ttl")
_rows(Ignored("the cache key always covers the whole run"), "io sections", under="cache")
_rows(_by("scheduler"), "termination.maxRetries")
_rows(_by("scheduler", "agent"), "timeout ttl", under="termination")
_rows(Ignored("idle runs are not culled"), "termination.culling")
_rows(_by("scheduler", "agent"), "termination.probe.http")
_rows(Ignored("only a service's HTTP probe is run"), "termination.probe.exec")
_rows(Ignored(_K8S), "termination.podFailurePolicy")
_rows(
    Ignored("plugins are not applied to local runs"),
    "auth docker shm mountArtifactsStore collectArtifacts collectLogs collectResources "
    "syncStatuses autoResume externalHost tmux sandbox ssh logLevel sidecar notifications",
    under="plugins",
)
_rows(
    _by("scheduler"),
    "hubRef connection trigger conditions queue disableDefaults params.*.value",
    under="hooks",
)
_rows(
    Ignored("a hook's params give values only"),
    "ref contextOnly connection toInit toEnv",
    under="hooks.params.*",
)
_rows(Ignored("named presets are not looked up for hooks"), "hooks.presets")
_rows(Ignored(_NAMESPACE), "hooks.namespace")

# Inputs and outputs.
for _io in ("inputs", "outputs"):
    _rows(_by("compiler"), "name type value isOptional isList isFlag argFormat", under=_io)
    _rows(_by("docs"), "description", under=_io)
    _rows(_by("scheduler", "agent"), "toEnv", under=_io)
    _rows(Ignored(_NO_CONNECTIONS), "connection", under=_io)
    _rows(Ignored("a value is not copied by an init container"), "toInit", under=_io)
    _rows(
        _by("compiler"),
        "delay gt ge lt le multipleOf minDigits maxDigits decimalPlaces regex minLength "
        "maxLength contains excludes options minItems maxItems keys containsKeys excludesKeys",
        under=f"{_io}.validation",
    )

# The runtime, root shortcuts included.
_rows(_by("compiler", "scheduler"), "run.kind")
_rows(_by("agent"), "cmd env resources.*.requests resources.*.limits")
_rows(_by("agent"), "command args workingDir", under="run.container")
_rows(_by("agent"), "name value", under="run.container.env")
_rows(Ignored("only `value` is read; the variable is left out"), "run.container.env.valueFrom")
_rows(_by("agent"), "requests limits", under="run.container.resources")
_rows(
    Ignored("the local agent reads `requests` and `limits` only"),
    "claims *",
    under="run.container.resources",
)
_rows(
    Ignored("the command runs on the agent's host, not in an image"),
    "image imagePullPolicy",
    under="run.container",
)
_rows(Ignored("a local run is a process, not a named container"), "run.container.name")
_rows(Ignored(_K8S), "envFrom ports volumeMounts *", under="run.container")
_rows(
    Ignored(_K8S),
    "labels annotations nodeSelector affinity tolerations nodeName serviceAccountName "
    "hostAliases securityContext imagePullSecrets hostNetwork hostPid dnsPolicy dnsConfig "
    "schedulerName priorityClassName priority restartPolicy",
    under="run.environment",
)
_rows(Ignored(_NO_CONNECTIONS), "run.connections")
_rows(Ignored("volumes are not mounted into local runs"), "run.volumes")
_rows(Ignored("sidecar containers are not run"), "run.sidecars")
_rows(_by("agent"), "paths path", under="run.init")
_rows(_by("agent"), "files dirs", under="run.init.artifacts")
_rows(Ignored("artifacts are copied one after the other"), "run.init.artifacts.workers")
_rows(_by("agent"), "url revision flags", under="run.init.git")
_rows(_by("agent"), "content filename chmod", under="run.init.file")
_rows(Ignored("the file is written as text"), "run.init.file.kind")
_rows(
    Ignored("this init kind needs a cluster or a store; it is skipped"),
    "dockerfile tensorboard lineageRef modelRef artifactRef connection container",
    under="run.init",
)
_rows(_by("compiler", "agent"), "run.ports")
_rows(
    Ignored("the local agent serves a service at the root of its own port, on this host"),
    "rewritePath isExternal",
    under="run",
)
_rows(Ignored("a service runs one process"), "run.replicas")
_rows(_by("scheduler"), "operations concurrency", under="run")
_rows(_by("compiler"), "run.components")
_rows(_by("scheduler"), "kind percent metric value optimization", under="run.earlyStopping")
_rows(Ignored("DAG runs are not pruned"), "run.earlyStopping.policy")
_rows(
    Ignored(_CLUSTER),
    "cleanPodPolicy schedulingPolicy enableDynamicWorker successPolicy chief ps worker "
    "evaluator elasticPolicy nProcPerNode master slotsPerWorker launcher entrypoint runtimeEnv "
    "metadata rayVersion head workers enableInTreeAutoscaling autoscalerOptions scheduler "
    "minReplicas maxReplicas",
    under="run",
)

# The matrix: fanned out by the compiler and the scheduler, adaptive kinds searched by the
# optimization service.
_rows(_by("compiler", "scheduler"), "kind values", under="matrix")
_rows(_by("scheduler"), "matrix.concurrency")
_rows(_by("compiler", "optimization"), "numRuns seed", under="matrix")
_rows(_by("compiler", "optimization"), "kind value", under="matrix.params.*")
_rows(
    _by("compiler", "optimization"),
    "start stop step num base low high loc scale q",
    under="matrix.params.*.value",
)
_rows(
    _by("scheduler", "optimization"),
    "kind percent metric value optimization",
    under="matrix.earlyStopping",
)
_rows(
    _by("optimization"),
    "kind percent evaluationInterval minInterval minSamples",
    under="matrix.earlyStopping.policy",
)
_rows(
    Ignored("trials are pruned against complete ones only"),
    "matrix.earlyStopping.policy.includeSucceeded",
)
_rows(_by("optimization"), "hubRef presets queue params", under="matrix.tuner")
_rows(Ignored(_NAMESPACE), "matrix.tuner.namespace")
_rows(
    _by("optimization"),
    "numInitialRuns maxIterations eta resume algorithm metric.name metric.optimization "
    "resource.name resource.type utilityFunction.acquisitionFunction utilityFunction.kappa "
    "utilityFunction.eps utilityFunction.numWarmup utilityFunction.numIterations",
    under="matrix",
)
_rows(
    _by("optimization"),
    "kernel lengthScale nu numRestartsOptimizer",
    under="matrix.utilityFunction.gaussianProcess",
)
