"""Kubernetes-shaped pieces: the container, its resources, the pod environment, init items.

The container is the Kubernetes V1Container: the fields Polyaxon relies on are typed, every
other Kubernetes field (probes, ``securityContext``, ...) is kept as written, and an unknown
field anywhere inside is an error naming the closest valid one (:mod:`.k8s_fields`), as are
unknown fields of ``volumes`` and of the Kubernetes objects of ``environment``.
``command``/``args`` may be a single string.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)

from axonal_spec.base import SpecModel
from axonal_spec.models.fields import (
    BoolOrRef,
    Int,
    IntOrRef,
    OrRef,
    RuleViolation,
    StrList,
    Text,
    TextOrList,
    is_template,
    show,
    with_violation,
)
from axonal_spec.models.k8s_fields import k8s_object, unknown_fields

__all__ = [
    "INIT_KINDS",
    "ArtifactsInit",
    "Container",
    "ContainerResources",
    "DockerfileInit",
    "EnvVar",
    "Environment",
    "FileInit",
    "GitInit",
    "Init",
    "Quantity",
    "TensorboardInit",
    "Volume",
    "check_quantity",
]

_QUANTITY = re.compile(
    r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?"
)


def check_quantity(value: Any) -> Any:
    """A Kubernetes quantity (``1``, ``0.5``, ``500m``, ``8Gi``), a ``{{ }}`` template, or
    ``"<request>..<limit>"`` made of two of those."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"expected a resource quantity such as 500m or 8Gi, got {show(value)}")
    if isinstance(value, str) and not is_template(value):
        parts = value.split("..")
        if len(parts) > 2 or not all(_QUANTITY.fullmatch(p.strip()) for p in parts):
            raise ValueError(f"expected a resource quantity such as 500m or 8Gi, got {show(value)}")
    return value


def _env_shape(value: Any) -> Any:
    if value is not None and not isinstance(value, Mapping | list):
        raise ValueError(f"expected a mapping or a list, got {show(value)}")
    return value


Quantity = Annotated[int | float | str, BeforeValidator(check_quantity)]
#: A pod volume (V1Volume), kept as written once its field names are known.
Volume = Annotated[dict[str, Any], AfterValidator(k8s_object("Volume"))]


class EnvVar(SpecModel):
    """One container environment variable (``value`` or ``valueFrom``); the container reports
    unknown keys."""

    model_config = ConfigDict(extra="ignore")

    name: str
    value: Text | None = None
    value_from: dict[str, Any] | None = None


class ResourceRange(SpecModel):
    """Per-resource form ``cpu: {requests: 1, limits: 2}``."""

    requests: Quantity | None = None
    limits: Quantity | None = None


class ContainerResources(SpecModel):
    """``requests``/``limits``/``claims`` (Kubernetes), or per resource (``cpu: 500m..1``)."""

    model_config = ConfigDict(extra="allow")

    requests: dict[str, Quantity] | None = None
    limits: dict[str, Quantity] | None = None
    claims: list[dict[str, Any]] | None = None

    @model_validator(mode="after")
    def _per_resource(self) -> ContainerResources:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        for key, value in (self.model_extra or {}).items():
            try:
                if isinstance(value, Mapping):
                    ResourceRange.model_validate(value)
                else:
                    check_quantity(value)
            except ValueError as exc:
                problems.append(((key,), _first_line(exc)))
        if problems:
            raise RuleViolation(problems)
        return self


class Container(SpecModel):
    """A Kubernetes container; keys beyond the typed ones are kept as written."""

    model_config = ConfigDict(extra="allow")

    name: str | None = None
    image: str | None = None
    image_pull_policy: str | None = None
    command: TextOrList | None = None
    args: TextOrList | None = None
    working_dir: str | None = None
    env: list[EnvVar] | None = None
    env_from: list[dict[str, Any]] | None = None
    resources: ContainerResources | None = None
    ports: list[dict[str, Any]] | None = None
    volume_mounts: list[dict[str, Any]] | None = None

    @model_validator(mode="wrap")
    @classmethod
    def _known_fields(cls, data: Any, handler: ModelWrapValidatorHandler[Container]) -> Container:
        """Unknown fields are reported together with the typed fields' errors."""
        problems = unknown_fields(data, "Container")
        try:
            container = handler(data)
        except ValidationError as exc:
            if not problems:
                raise
            raise with_violation(exc, RuleViolation(problems), data) from None
        if problems:
            raise RuleViolation(problems)
        return container


class Environment(SpecModel):
    """Pod-level settings (V1Environment)."""

    labels: dict[str, Text] | None = None
    annotations: dict[str, Text] | None = None
    node_selector: dict[str, Text] | None = None
    affinity: Annotated[dict[str, Any], AfterValidator(k8s_object("Affinity"))] | None = None
    tolerations: (
        Annotated[list[dict[str, Any]], AfterValidator(k8s_object("Toleration"))] | None
    ) = None
    node_name: str | None = None
    service_account_name: str | None = None
    host_aliases: (
        Annotated[list[dict[str, Any]], AfterValidator(k8s_object("HostAlias"))] | None
    ) = None
    security_context: (
        Annotated[dict[str, Any], AfterValidator(k8s_object("PodSecurityContext"))] | None
    ) = None
    image_pull_secrets: StrList | None = None
    host_network: BoolOrRef | None = None
    host_pid: BoolOrRef | None = None
    dns_policy: str | None = None
    dns_config: Annotated[dict[str, Any], AfterValidator(k8s_object("PodDNSConfig"))] | None = None
    scheduler_name: str | None = None
    priority_class_name: str | None = None
    priority: IntOrRef | None = None
    restart_policy: Literal["Always", "OnFailure", "Never", "ExitCode"] | None = None


class ArtifactsInit(SpecModel):
    """Files and dirs to pull from the artifacts store."""

    files: list[TextOrList] | None = None
    dirs: list[TextOrList] | None = None
    workers: IntOrRef | None = None


class GitInit(SpecModel):
    """A repository to clone."""

    url: str | None = None
    revision: str | None = None
    flags: list[str] | None = None


class DockerfileInit(SpecModel):
    """A Dockerfile to generate."""

    image: str
    env: Annotated[Any, AfterValidator(_env_shape)] = None
    path: list[str] | None = None
    copy_: list[TextOrList] | None = Field(default=None, alias="copy")
    post_run_copy: list[TextOrList] | None = None
    run: list[str] | None = None
    lang_env: str | None = None
    uid: Int | None = None
    gid: Int | None = None
    username: str | None = None
    filename: str | None = None
    workdir: str | None = None
    workdir_path: str | None = None
    shell: str | None = None


class FileInit(SpecModel):
    """A file to write."""

    content: str
    filename: str | None = None
    kind: str | None = None
    chmod: str | None = None


class TensorboardInit(SpecModel):
    """A tensorboard init (logs of some runs)."""

    port: IntOrRef | None = None
    uuids: StrList | None = None
    use_names: BoolOrRef | None = None
    path_prefix: str | None = None
    plugins: StrList | None = None


#: The mutually exclusive kinds of an init item.
INIT_KINDS = (
    "artifacts",
    "paths",
    "git",
    "dockerfile",
    "file",
    "tensorboard",
    "lineageRef",
    "modelRef",
    "artifactRef",
)


class Init(SpecModel):
    """One init container: at most one kind, plus an optional connection, path, container.

    As in Polyaxon, an item with only a ``connection`` (pull that repository/store) or only a
    ``container`` (custom init container) is valid; an empty item is not.
    """

    artifacts: OrRef[ArtifactsInit] | None = None
    paths: OrRef[list[TextOrList]] | None = None
    git: OrRef[GitInit] | None = None
    dockerfile: OrRef[DockerfileInit] | None = None
    file: OrRef[FileInit] | None = None
    tensorboard: OrRef[TensorboardInit] | None = None
    lineage_ref: str | None = None
    model_ref: str | None = None
    artifact_ref: str | None = None
    connection: str | None = None
    path: str | None = None
    container: OrRef[Container] | None = None

    model_config = ConfigDict(protected_namespaces=())

    @model_validator(mode="after")
    def _one_kind(self) -> Init:
        kinds = [kind for kind in INIT_KINDS if self.kind_value(kind) is not None]
        names = ", ".join(INIT_KINDS)
        if len(kinds) > 1:
            message = f"an init item takes one of {names}; got {', '.join(kinds)}"
            raise RuleViolation([((kinds[1],), message)])
        if not kinds and self.connection is None and self.container is None:
            message = f"an init item needs one of {names}, a connection or a container"
            raise RuleViolation([((), message)])
        if isinstance(self.git, GitInit) and not self.git.url and not self.connection:
            raise RuleViolation([(("git",), "git without a url needs a connection")])
        return self

    def kind_value(self, kind: str) -> Any:
        """The value of one of :data:`INIT_KINDS` (camelCase name)."""
        field = {
            "lineageRef": "lineage_ref",
            "modelRef": "model_ref",
            "artifactRef": "artifact_ref",
        }
        return getattr(self, field.get(kind, kind))

    @property
    def kind(self) -> str | None:
        """Which of :data:`INIT_KINDS` this item is, if any."""
        return next((kind for kind in INIT_KINDS if self.kind_value(kind) is not None), None)


def _first_line(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return str(first.get("msg", exc)).removeprefix("Value error, ")
    return str(exc)
