"""Generate ``axonal_spec/models/k8s_fields.json``: the fields of the Kubernetes objects a
polyaxonfile writes (container, volumes, the pod-level settings of ``environment``).

Source: the strict JSON schema shipped by the ``kubernetes-validate`` package (a dev
dependency), for the Kubernetes version named below. For every object reachable from the
roots, each field maps to the object it holds (directly or as list items) or to ``null`` for
a scalar, a map or a quantity. Run ``make k8s-fields`` after raising
the version; a unit test checks that the committed file is this script's output.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import kubernetes_validate

KUBERNETES = "1.37.0"
ROOTS = ("Container", "Volume", "Affinity", "Toleration", "PodSecurityContext", "HostAlias")
ROOTS += ("PodDNSConfig",)
_PREFIX = "#/$defs/"


def _definitions() -> dict[str, Any]:
    folder = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    schema = json.loads((folder / f"v{KUBERNETES}-local-strict" / "_definitions.json").read_text())
    definitions: dict[str, Any] = schema["$defs"]
    return definitions


def _target(prop: dict[str, Any]) -> str | None:
    for holder in (prop, prop.get("items") or {}):
        if isinstance(holder, dict) and "$ref" in holder:
            return str(holder["$ref"]).removeprefix(_PREFIX)
    return None


def fields() -> dict[str, Any]:
    """``{"source": ..., "objects": {name: {field: object name or None}}}``."""
    definitions = _definitions()
    by_short = {key.rsplit(".", 1)[-1]: key for key in definitions if "core.v1." in key}
    objects: dict[str, dict[str, str | None]] = {}
    origin: dict[str, str] = {}  # an object's name -> its full definition name
    pending = [by_short[root] for root in ROOTS]
    while pending:
        key = pending.pop()
        name = key.rsplit(".", 1)[-1]
        if origin.setdefault(name, key) != key:
            raise SystemExit(f"two objects named {name}: {origin[name]} and {key}")
        if name in objects:
            continue
        objects[name] = {}
        for field, prop in sorted(definitions[key].get("properties", {}).items()):
            target = _target(prop)
            if target is not None and definitions[target].get("properties"):
                objects[name][field] = target.rsplit(".", 1)[-1]
                pending.append(target)
            else:
                objects[name][field] = None
    source = f"kubernetes-validate {version('kubernetes-validate')}, Kubernetes v{KUBERNETES}"
    return {"source": source, "objects": dict(sorted(objects.items()))}


if __name__ == "__main__":
    json.dump(fields(), sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
