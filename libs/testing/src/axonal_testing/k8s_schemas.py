"""Validate a Kubernetes manifest offline, as far as the API server's schemas go.

Core kinds are checked by ``kubernetes-validate`` against Kubernetes :data:`K8S_VERSION` in
strict mode (an unknown field is an error). A custom resource is checked against the
``openAPIV3Schema`` of its CRD, vendored under ``tests/fixtures/k8s/crds`` (gzipped YAML),
made strict the same way: an object schema that lists its properties and does not preserve
unknown fields refuses any other; its ``metadata`` is checked as a Kubernetes ObjectMeta.
Both also get the checks the API server makes beyond its schemas: object, container and
volume names, label syntax, unique container and volume names in a pod, and volume mounts
naming a volume of the pod. CEL rules and admission webhooks are not checked.

The ``kubernetes-validate`` and ``jsonschema`` packages are test dependencies of the workspace.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import yaml

from axonal_testing.conformance import project_fixtures

__all__ = ["K8S_VERSION", "ManifestError", "crd_folder", "validate_manifest"]

K8S_VERSION = "1.33.0"

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
_LABEL_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS_1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")

Where = tuple[str | int, ...]


class ManifestError(AssertionError):
    """A manifest the API server would refuse: ``path`` says where, dotted."""

    def __init__(self, what: str, path: Sequence[str | int], message: str) -> None:
        self.path = ".".join(str(part) for part in path)
        self.reason = message
        super().__init__(f"{what}: {message} at {self.path or '(root)'}")


def crd_folder() -> Path:
    """The vendored CRDs: ``tests/fixtures/k8s/crds``."""
    return project_fixtures() / "k8s" / "crds"


def validate_manifest(
    manifest: Mapping[str, Any], *, version: str = K8S_VERSION, crds: Path | None = None
) -> None:
    """Raise :class:`ManifestError` (with the path of the first problem) unless the API
    server of Kubernetes ``version`` would take ``manifest``; custom resources need their CRD
    in ``crds`` (by default :func:`crd_folder`)."""
    doc = dict(manifest)
    what = f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
    kind = (str(doc.get("apiVersion")), str(doc.get("kind")))
    schema = _custom_schemas(crds or crd_folder()).get(kind)
    if schema is None:
        _validate_core(doc, what, version)
    else:
        _raise_first(jsonschema.Draft4Validator(schema).iter_errors(doc), what, ())
        meta = _object_meta(version)
        _raise_first(meta.iter_errors(doc.get("metadata")), what, ("metadata",))
    for path, message in _name_problems(doc):
        raise ManifestError(what, path, message)


def _validate_core(doc: dict[str, Any], what: str, version: str) -> None:
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.SchemaNotFoundError:
        kind = f"{doc.get('apiVersion')} {doc.get('kind')}"
        raise ManifestError(
            what, (), f"{kind} is neither a Kubernetes {version} kind nor a vendored CRD"
        ) from None
    except kubernetes_validate.ValidationError as exc:
        raise ManifestError(what, list(exc.absolute_path), exc.message) from None


def _raise_first(errors: Iterator[jsonschema.ValidationError], what: str, prefix: Where) -> None:
    error = jsonschema.exceptions.best_match(errors)
    if error is not None:
        raise ManifestError(what, (*prefix, *error.absolute_path), error.message)


@cache
def _custom_schemas(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """``(apiVersion, kind) -> strict schema`` of every version of every CRD in ``folder``."""
    schemas: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml.gz")):
        crd = yaml.load(gzip.decompress(path.read_bytes()), Loader=_LOADER)  # noqa: S506
        spec = crd["spec"]
        for version in spec["versions"]:
            api = f"{spec['group']}/{version['name']}"
            schema = _strict(version["schema"]["openAPIV3Schema"])
            for field in ("apiVersion", "kind"):  # the API server's, whether a CRD lists them
                schema["properties"].setdefault(field, {"type": "string"})
            schema["properties"].setdefault("metadata", {"type": "object"})
            schemas[(api, spec["names"]["kind"])] = schema
    return schemas


def _strict(schema: Any) -> Any:
    """``schema`` where objects listing their properties refuse others, and ``nullable``
    fields take ``null`` (OpenAPI v3 spellings turned into JSON Schema)."""
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    strict = {key: _strict(value) for key, value in schema.items()}
    closed = not strict.get("x-kubernetes-preserve-unknown-fields")
    if closed and "properties" in strict and "additionalProperties" not in strict:
        strict["additionalProperties"] = False
    if strict.pop("nullable", False) and isinstance(strict.get("type"), str):
        strict["type"] = [strict["type"], "null"]
    return strict


@cache
def _object_meta(version: str) -> jsonschema.Draft202012Validator:
    folder = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    text = (folder / f"v{version}-local-strict" / "_definitions.json").read_text()
    definitions = json.loads(text)
    return jsonschema.Draft202012Validator({**definitions, "$ref": f"#/$defs/{_OBJECT_META}"})


def _name_problems(doc: Mapping[str, Any]) -> Iterator[tuple[Where, str]]:
    meta = doc.get("metadata") or {}
    name = str(meta.get("name", ""))
    if doc.get("kind") == "Service":
        if len(name) > 63 or not _DNS_1035.match(name):
            yield ("metadata", "name"), f"{name!r} is not a DNS-1035 label"
    elif len(name) > 253 or not _DNS_SUBDOMAIN.match(name):
        yield ("metadata", "name"), f"{name!r} is not a DNS-1123 subdomain"
    yield from _walk(doc, ())


def _walk(value: Any, path: Where) -> Iterator[tuple[Where, str]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index))
        return
    if not isinstance(value, Mapping):
        return
    if path and path[-1] == "metadata" and isinstance(value.get("labels"), Mapping):
        yield from _label_problems(value["labels"], (*path, "labels"))
    if isinstance(value.get("containers"), list):
        yield from _pod_problems(value, path)
    for key, item in value.items():
        yield from _walk(item, (*path, key))


def _label_problems(labels: Mapping[str, Any], path: Where) -> Iterator[tuple[Where, str]]:
    for key, value in labels.items():
        prefix, _, name = str(key).rpartition("/")
        if len(name) > 63 or not _LABEL_NAME.match(name):
            yield (*path, key), "not a valid label key"
        elif prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix)):
            yield (*path, key), "the label key's prefix is not a DNS-1123 subdomain"
        if not isinstance(value, str):
            yield (*path, key), f"a label value must be a string, not {value!r}"
        elif value and (len(value) > 63 or not _LABEL_NAME.match(value)):
            yield (*path, key), f"{value!r} is not a valid label value"


def _pod_problems(pod: Mapping[str, Any], path: Where) -> Iterator[tuple[Where, str]]:
    """A pod spec: container and volume names, and what the mounts name."""
    volumes = [v.get("name") for v in pod.get("volumes") or [] if isinstance(v, Mapping)]
    yield from _names(volumes, (*path, "volumes"), "volume")
    containers: list[Any] = []
    for field in ("initContainers", "containers"):
        for index, container in enumerate(pod.get(field) or []):
            where = (*path, field, index)
            containers.append(container.get("name"))
            for mount in container.get("volumeMounts") or []:
                if mount.get("name") not in volumes:
                    yield (*where, "volumeMounts"), f"mounts {mount.get('name')!r}, not a volume"
    yield from _names(containers, path, "container")


def _names(names: list[Any], path: Where, what: str) -> Iterator[tuple[Where, str]]:
    for name in names:
        if not isinstance(name, str) or len(name) > 63 or not _DNS_LABEL.match(name):
            yield path, f"{what} name {name!r} is not a DNS-1123 label"
        elif names.count(name) > 1:
            yield path, f"two {what}s are named {name!r}"
