"""A pod template from a run section: a job, a service, or a replica of a distributed kind
(pure).

The pod has one container, the main one, named as its workload needs (the operators find
theirs by name). It gets the run's env before its own, highest precedence first: the
Secret's keys (``secretKeyRef``), the target's env (the run context), the workload's (a
service's ``AXONAL_SERVICE_*``), the section's ``connections``, then the container's own
``env``; and ``terminationMessagePolicy: FallbackToLogsOnError``, so that a failure's message
ends with its log. The section's ``sidecars`` are native sidecars (init containers that
restart ``Always``, Kubernetes 1.29+) started after the ``init`` steps: they run beside the
main container and do not keep a finished job's pod alive. The artifacts volume is mounted in
all of them. The section's ``volumes`` join the pod's own (``plx-`` names are the platform's).

``environment`` becomes the pod's settings, keyed as Kubernetes spells them: ``labels`` and
``annotations`` on the template (the attempt's labels win), ``nodeSelector`` (over the
cluster's), ``affinity``, ``tolerations``, ``nodeName``, ``serviceAccountName`` (else the
cluster's), ``hostAliases``, ``securityContext``, ``imagePullSecrets`` (with the cluster's),
``hostNetwork``, ``hostPID``, ``dnsPolicy``, ``dnsConfig``, ``schedulerName``,
``priorityClassName``, ``priority`` and ``restartPolicy``. A restart policy the workload
cannot take (a job's pods restart ``Never``: retries are the scheduler's; a Deployment's
``Always``) is replaced, with a note saying so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.connections import attach, resolve
from axonal_agent.domain.kube.containers import (
    EnvVar,
    container_spec,
    env_entries,
    merge_env,
    secret_env,
)
from axonal_agent.domain.kube.init import init_containers
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.volumes import artifacts_mount, artifacts_volume
from axonal_spec.models.k8s_fields import camel_fields

__all__ = ["PodRole", "pod_template"]

#: ``environment`` fields holding Kubernetes objects, by the object's kind.
_OBJECTS = {
    "affinity": "Affinity",
    "tolerations": "Toleration",
    "securityContext": "PodSecurityContext",
    "hostAliases": "HostAlias",
    "dnsConfig": "PodDNSConfig",
}
_PLAIN = (
    "nodeName",
    "hostNetwork",
    "hostPID",
    "dnsPolicy",
    "schedulerName",
    "priorityClassName",
    "priority",
)
_OWN = ("labels", "annotations", "nodeSelector", "serviceAccountName", "imagePullSecrets")
_POLICIES = ("Always", "OnFailure", "Never")


@dataclass(frozen=True, slots=True)
class PodRole:
    """How a section runs: its main container's name, and the restart policy its workload
    needs (``None``: the section's own, if any)."""

    container: str
    restart: str | None = None


def _environment(section: Mapping[str, Any], where: str) -> dict[str, Any]:
    environment = section.get("environment") or {}
    if not isinstance(environment, Mapping):
        raise InvalidRunError(f"{where}environment: expected a mapping, got {environment!r}")
    unknown = sorted(set(environment) - {*_OBJECTS, *_PLAIN, *_OWN, "restartPolicy"})
    if unknown:
        raise InvalidRunError(f"{where}environment.{unknown[0]}: not a pod setting")
    return dict(environment)


def _restart_policy(
    environment: Mapping[str, Any], role: PodRole, where: str, notes: list[str]
) -> str | None:
    wanted = environment.get("restartPolicy")
    if role.restart is None:
        if wanted is not None and wanted not in _POLICIES:
            raise InvalidRunError(
                f"{where}environment.restartPolicy: {wanted!r} is not a pod restart policy"
            )
        return None if wanted is None else str(wanted)
    if wanted is not None and wanted != role.restart:
        notes.append(
            f"{where}environment.restartPolicy: {wanted} replaced by {role.restart} "
            + (
                "(retries are the scheduler's: termination.maxRetries)"
                if role.restart == "Never"
                else "(its pods belong to a Deployment)"
            )
        )
    return role.restart


def _settings(environment: Mapping[str, Any], target: Target) -> dict[str, Any]:
    """The pod spec fields of ``environment`` and the cluster's defaults."""
    cluster = target.cluster
    spec: dict[str, Any] = {}
    selector = {**cluster.node_selector, **(environment.get("nodeSelector") or {})}
    if selector:
        spec["nodeSelector"] = {str(k): str(v) for k, v in selector.items()}
    account = environment.get("serviceAccountName") or cluster.service_account
    if account:
        spec["serviceAccountName"] = str(account)
    secrets = [*cluster.image_pull_secrets, *(environment.get("imagePullSecrets") or [])]
    if secrets:
        spec["imagePullSecrets"] = [{"name": str(name)} for name in dict.fromkeys(secrets)]
    for key, kind in _OBJECTS.items():
        if environment.get(key) is not None:
            spec[key] = camel_fields(environment[key], kind)
    spec.update({key: environment[key] for key in _PLAIN if environment.get(key) is not None})
    return spec


def _volumes(section: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    volumes = section.get("volumes") or []
    if not isinstance(volumes, list):
        raise InvalidRunError(f"{where}volumes: expected a list of volumes")
    result = [camel_fields(volume, "Volume") for volume in volumes]
    for index, volume in enumerate(result):
        if str(volume.get("name", "")).startswith("plx-"):
            raise InvalidRunError(f"{where}volumes[{index}].name: plx- names are reserved")
    return result


def _main(
    section: Mapping[str, Any],
    target: Target,
    role: PodRole,
    where: str,
    extra_env: Sequence[EnvVar],
    volumes: list[dict[str, Any]],
) -> dict[str, Any]:
    cluster = target.cluster
    container = container_spec(
        section.get("container"),
        where=f"{where}container",
        name=role.container,
        default_image=cluster.default_image,
    )
    connections = resolve(section.get("connections"), cluster.connections, f"{where}connections")
    attached = attach(connections)
    volumes.extend(attached.volumes)
    mounts = container.get("volumeMounts", [])
    container["volumeMounts"] = [artifacts_mount(target), *mounts, *attached.mounts]
    if attached.env_from:
        container["envFrom"] = [*container.get("envFrom", []), *attached.env_from]
    env = merge_env(
        secret_env(target.secret, target.secret_keys),
        env_entries(dict(target.env), "env"),
        extra_env,
        attached.env,
        container.pop("env", []),
    )
    if env:
        container["env"] = env
    container.setdefault("terminationMessagePolicy", "FallbackToLogsOnError")
    return container


def _sidecars(section: Mapping[str, Any], target: Target, where: str) -> list[dict[str, Any]]:
    sidecars = section.get("sidecars") or []
    if not isinstance(sidecars, list):
        raise InvalidRunError(f"{where}sidecars: expected a list of containers")
    result = []
    for index, raw in enumerate(sidecars):
        name = str((raw or {}).get("name") or f"plx-sidecar-{index}")
        container = container_spec(
            raw,
            where=f"{where}sidecars[{index}]",
            name=name,
            default_image=target.cluster.default_image,
        )
        container["volumeMounts"] = [artifacts_mount(target), *container.get("volumeMounts", [])]
        container["restartPolicy"] = "Always"
        result.append(container)
    return result


def pod_template(
    section: Mapping[str, Any],
    target: Target,
    role: PodRole,
    notes: list[str],
    *,
    where: str = "",
    extra_env: Sequence[EnvVar] = (),
) -> dict[str, Any]:
    """The pod template (``metadata`` and ``spec``) of ``section``; ``where`` prefixes field
    names in errors and ``notes`` (``worker.`` for a replica); ``notes`` receives what was
    changed to fit the workload."""
    environment = _environment(section, where)
    init = init_containers(section.get("init"), target, where)
    volumes = [artifacts_volume(target), *init.volumes]
    main = _main(section, target, role, where, extra_env, volumes)
    spec: dict[str, Any] = {}
    steps = [*init.containers, *_sidecars(section, target, where)]
    if steps:
        spec["initContainers"] = steps
    spec["containers"] = [main]
    spec["volumes"] = _unique([*volumes, *_volumes(section, where)], where)
    restart = _restart_policy(environment, role, where, notes)
    if restart is not None:
        spec["restartPolicy"] = restart
    spec.update(_settings(environment, target))
    metadata: dict[str, Any] = {"labels": {**_strings(environment.get("labels")), **target.labels}}
    annotations = _strings(environment.get("annotations"))
    if annotations:
        metadata["annotations"] = annotations
    return {"metadata": metadata, "spec": spec}


def _unique(volumes: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """One volume per name (connections and the store may come twice, the same)."""
    by_name: dict[str, dict[str, Any]] = {}
    for volume in volumes:
        name = str(volume.get("name"))
        if by_name.setdefault(name, volume) != volume:
            raise InvalidRunError(f"{where}volumes: two different volumes are named {name!r}")
    return list(by_name.values())


def _strings(mapping: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in (mapping or {}).items()}
