"""Every field path of the polyaxonfile models, as :mod:`axonal_spec.support` spells them."""

import types
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

from axonal_spec.models import Polyaxonfile


def field_paths() -> set[str]:
    """The leaf fields (values that hold no model) and the nested polyaxonfiles, reachable
    from the root document; ``*`` for a mapping's keys and a model's free-form keys."""
    paths: set[str] = set()
    _model(Polyaxonfile, "", paths)
    return paths


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _members(annotation: Any) -> list[Any]:
    """The alternatives of a type, through ``Annotated`` and unions."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _members(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [member for arg in get_args(annotation) for member in _members(arg)]
    return [annotation]


def _holds_model(annotation: Any) -> bool:
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return True
        if any(_holds_model(arg) for arg in get_args(member) if arg is not Ellipsis):
            return True
    return False


def _visit(annotation: Any, path: str, paths: set[str]) -> None:
    if not _holds_model(annotation):
        paths.add(path)
        return
    for member in _members(annotation):  # alternatives without a model: templates, patches
        origin = get_origin(member)
        if isinstance(member, type) and issubclass(member, BaseModel):
            _model(member, path, paths)
        elif origin in (list, tuple) and _holds_model(member):
            for arg in get_args(member):
                if arg is not Ellipsis:
                    _visit(arg, path, paths)
        elif origin is dict and _holds_model(member):
            _visit(get_args(member)[1], f"{path}.*", paths)


def _model(model: type[BaseModel], path: str, paths: set[str]) -> None:
    if model is Polyaxonfile and path:
        paths.add(path)  # read with the rows of the root
        return
    for name, info in model.model_fields.items():
        _visit(info.annotation, _join(path, info.alias or name), paths)
    if model.model_config.get("extra") == "allow":
        paths.add(f"{path}.*")
