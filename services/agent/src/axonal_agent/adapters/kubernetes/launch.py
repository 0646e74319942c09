"""An attempt's :class:`~axonal_agent.domain.kube.Target`, its Secret and its
:class:`~axonal_agent.adapters.kubernetes.process.Handle` (pure).

The run's env is its context and toEnv params (the context wins, as on the agent's host),
less the sensitive variables, which travel in the attempt's Secret ``<workload>-env``
(labelled as the workload); ``AXONAL_RUN_ARTIFACTS_PATH`` is the pod's artifacts volume and
``AXONAL_RUN_OUTPUTS_FILE`` the main container's ``/dev/termination-log``, so that the
outputs a run logs come back as its termination message.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from axonal_agent.adapters.kubernetes.client import SECRET
from axonal_agent.adapters.kubernetes.handle import Handle
from axonal_agent.domain.kube import Cluster, Kind, Target, Workload
from axonal_agent.domain.kube.target import (
    ATTEMPT_LABEL,
    CONTEXT_ARTIFACTS,
    RUN_UUID_LABEL,
    SENSITIVE_ENV,
    workload_name,
)
from axonal_agent.domain.kube.workload import (
    DASK_AUTOSCALER,
    DASK_CLUSTER,
    DEPLOYMENT,
    JOB,
    MPI_JOB,
    PYTORCH_JOB,
    RAY_CLUSTER,
    RAY_JOB,
    SERVICE,
    TF_JOB,
)
from axonal_agent.ports import Launch

__all__ = [
    "OUTPUTS_FILE",
    "PRIMARY_KINDS",
    "adopted_handle",
    "handle_of",
    "kind_of",
    "secret_manifest",
    "secret_name",
    "target_of",
]

#: Where a main container's termination message is read from (Kubernetes' default path).
OUTPUTS_FILE = "/dev/termination-log"
#: The kinds a workload's primary object may be of, in the order an adoption looks for them.
PRIMARY_KINDS = (JOB, DEPLOYMENT, PYTORCH_JOB, TF_JOB, MPI_JOB, RAY_JOB, RAY_CLUSTER, DASK_CLUSTER)
_KINDS = {(k.api_version, k.kind): k for k in (*PRIMARY_KINDS, SERVICE, DASK_AUTOSCALER, SECRET)}
_SPREAD = frozenset({PYTORCH_JOB, TF_JOB, MPI_JOB, RAY_JOB, RAY_CLUSTER, DASK_CLUSTER})


def secret_name(workload: str) -> str:
    return f"{workload}-env"


def target_of(launch: Launch, cluster: Cluster, agent: str) -> Target:
    """The attempt of ``launch`` on ``cluster`` (whose namespace is the launch queue's)."""
    context = dict(launch.context)
    hidden = {key: context.pop(key) for key in SENSITIVE_ENV if context.get(key)}
    env = {**launch.to_env, **context}
    env.update(AXONAL_RUN_ARTIFACTS_PATH=CONTEXT_ARTIFACTS, AXONAL_RUN_OUTPUTS_FILE=OUTPUTS_FILE)
    for key in SENSITIVE_ENV:
        env.pop(key, None)  # a toEnv param never carries them inline
    name = workload_name(launch.run_uuid, launch.attempt)
    return Target(
        cluster=cluster,
        run_uuid=launch.run_uuid,
        attempt=launch.attempt,
        agent=agent,
        project=launch.project,
        env=env,
        secret=secret_name(name) if hidden else None,
        secret_keys=tuple(hidden),
        timeout_seconds=launch.timeout,
        probe=launch.probe,
    )


def secret_manifest(target: Target, context: Mapping[str, str]) -> dict[str, Any] | None:
    """The Secret holding the target's sensitive variables (``None``: it has none)."""
    if target.secret is None:
        return None
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": target.secret,
            "namespace": target.namespace,
            "labels": target.labels,
        },
        "type": "Opaque",
        "stringData": {key: context[key] for key in target.secret_keys},
    }


def kind_of(obj: Mapping[str, Any]) -> Kind:
    """The kind of an object a builder made."""
    return _KINDS[str(obj["apiVersion"]), str(obj["kind"])]


def _pods(kind: Kind, name: str, selector: str) -> tuple[str, ...]:
    # KubeRay's submitter pod (``ray job submit``, the entrypoint's output) is its Job's.
    return (selector, f"job-name={name}") if kind == RAY_JOB else (selector,)


def handle_of(workload: Workload, secret: str | None) -> Handle:
    """What to watch and delete of a workload just made."""
    objects = tuple((kind_of(obj), str(obj["metadata"]["name"])) for obj in workload.objects)
    if secret is not None:
        objects += ((SECRET, secret),)
    return Handle(
        kind=workload.kind,
        name=workload.name,
        namespace=workload.namespace,
        pods=_pods(workload.kind, workload.name, workload.label_selector),
        objects=objects,
        endpoints=dict(workload.endpoints),
        enforces_timeout=workload.enforces_timeout,
        spread=workload.kind in _SPREAD,
    )


def adopted_handle(kind: Kind, run_uuid: str, attempt: int, namespace: str) -> Handle:
    """What to watch and delete of a workload an earlier agent life made (a Deployment's
    Service has its name; its endpoints were reported then)."""
    name = workload_name(run_uuid, attempt)
    selector = f"{RUN_UUID_LABEL}={uuid.UUID(run_uuid).hex},{ATTEMPT_LABEL}={attempt}"
    objects = ((kind, name),) + (((SERVICE, name),) if kind == DEPLOYMENT else ())
    objects += ((SECRET, secret_name(name)),)
    return Handle(
        kind=kind,
        name=name,
        namespace=namespace,
        pods=_pods(kind, name, selector),
        objects=objects,
        enforces_timeout=True,  # no timeout but the cluster's is left after a restart
        spread=kind in _SPREAD,
    )
