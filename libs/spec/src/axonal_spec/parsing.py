"""Read a polyaxonfile (YAML or JSON text, a file, or a mapping) into a :class:`Polyaxonfile`.

Every failure is one :class:`SpecError`: YAML syntax errors carry the line and column;
validation errors carry one :class:`Problem` per pydantic error, located in the file's
camelCase spelling (``run.container.resources``, ``run.operations[2].name``) with a
one-line message (``unknown key 'conainer'; did you mean 'container'?``, ``expected an
integer, got 'abc'``).
No other exception type escapes :func:`load`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, Tag, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import ErrorDetails

from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.models import Polyaxonfile
from axonal_spec.models.fields import TAG_PREFIX, RuleViolation, show

__all__ = ["error_paths", "load", "parse_text", "spec_error"]

_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "a boolean",
    "bool_parsing": "a boolean",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a mapping",
    "mapping_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "datetime_type": "a date-time",
    "datetime_parsing": "a date-time",
    "datetime_from_date_parsing": "a date-time",
}
_BOUNDS = {
    "greater_than": ("gt", ">"),
    "greater_than_equal": ("ge", ">="),
    "less_than": ("lt", "<"),
    "less_than_equal": ("le", "<="),
}


#: libyaml's safe loader is about 10x faster than the pure-Python one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(source: str | Path | Mapping[str, Any], *, location: str | None = None) -> Polyaxonfile:
    """Parse and validate one polyaxonfile.

    ``source`` is YAML/JSON text (``str``), a file (``Path``), or an already-loaded mapping.
    ``location`` names where it comes from (a path or URL) in error messages; it defaults to
    the file path. Raises :class:`SpecError` and nothing else.
    """
    if isinstance(source, Path):
        location = location or str(source)
    try:
        document = _read(source, location) if isinstance(source, str | Path) else source
        return _validate(document, location)
    except SpecError:
        raise
    except RecursionError:
        raise SpecError(Problem("", "the document is nested too deeply"), source=location) from None
    except Exception as exc:  # noqa: BLE001 - the contract: nothing but SpecError escapes
        raise SpecError(Problem("", f"cannot read the document: {exc}"), source=location) from None


def parse_text(text: str, *, location: str | None = None) -> Any:
    """YAML (or JSON) text to Python data; syntax errors become a :class:`SpecError`."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return json.loads(text)
        except ValueError:
            pass  # not strict JSON: YAML flow style reads it, or reports the error
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader, in C when available
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = " ".join(str(exc.problem or exc.context or "syntax error").split())
        raise SpecError(Problem("", f"invalid YAML{where}: {problem}"), source=location) from None
    except yaml.reader.ReaderError as exc:
        char = exc.character
        shown = f"#x{char:04x}" if isinstance(char, int) else repr(char)
        message = f"invalid YAML: character {shown} at position {exc.position}: {exc.reason}"
        raise SpecError(Problem("", message), source=location) from None
    except yaml.YAMLError as exc:
        raise SpecError(
            Problem("", f"invalid YAML: {' '.join(str(exc).split())}"), source=location
        ) from None


def spec_error(
    exc: ValidationError,
    *,
    root: Any = Polyaxonfile,
    prefix: Sequence[str | int] = (),
    source: str | None = None,
) -> SpecError:
    """One :class:`SpecError` from a pydantic error raised while validating ``root``."""
    problems: list[Problem] = []
    for error in exc.errors():
        for problem in _problems(error, root, prefix):
            if problem not in problems:
                problems.append(problem)
    return SpecError(problems, source=source)


def error_paths(exc: ValidationError) -> list[list[str | int]]:
    """Where each problem of ``exc`` (raised validating a :class:`Polyaxonfile`) lies: the
    path of keys and indexes in the file's spelling."""
    paths: list[list[str | int]] = []
    for error in exc.errors():
        path = _file_location(Polyaxonfile, error["loc"])
        cause = (error.get("ctx") or {}).get("error")
        subs = [sub for sub, _ in cause.problems] if isinstance(cause, RuleViolation) else [()]
        paths.extend([*path, *sub] for sub in subs)
    return paths


def _read(source: str | Path, location: str | None) -> Any:
    if isinstance(source, Path):
        try:
            text = source.read_bytes().decode("utf-8")
        except OSError as exc:
            raise SpecError(
                Problem("", f"cannot read the file: {exc.strerror or exc}"), source=location
            ) from None
        except UnicodeDecodeError:
            raise SpecError(Problem("", "the file is not UTF-8 text"), source=location) from None
    else:
        text = source
    return parse_text(text, location=location)


def _validate(document: Any, location: str | None) -> Polyaxonfile:
    if document is None:
        raise SpecError(Problem("", "the document is empty"), source=location)
    if not isinstance(document, Mapping):
        hint = None
        if isinstance(document, str) and document.endswith((".yaml", ".yml", ".json")):
            hint = "pass a pathlib.Path to read a file"
        raise SpecError(
            Problem("", f"a polyaxonfile is a mapping, got {show(document)}", hint), source=location
        )
    try:
        return Polyaxonfile.model_validate(document)
    except ValidationError as exc:
        raise spec_error(exc, source=location) from None


def _problems(error: ErrorDetails, root: Any, prefix: Sequence[str | int]) -> list[Problem]:
    path = [*prefix, *_file_location(root, error["loc"])]
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    cause = ctx.get("error")
    if isinstance(cause, RuleViolation):
        return [
            Problem(join_location(*path, *sub), message, cause.hints.get(sub))
            for sub, message in cause.problems
        ]
    if kind == "spec_kind":
        got = value.get("kind") if isinstance(value, Mapping) else None
        detail = "kind is missing" if got is None else f"got {show(got)}"
        return [Problem(join_location(*path, "kind"), f"{error['msg']}; {detail}")]
    message = _message(kind, error, path)
    if kind == "extra_forbidden" and (close := _closest_key(root, error["loc"])):
        message += f"; did you mean '{close}'?"
    return [Problem(join_location(*path), message)]


def _message(kind: str, error: ErrorDetails, path: list[str | int]) -> str:
    ctx, value = error.get("ctx") or {}, error.get("input")
    last = path[-1] if path else ""
    if kind == "invalid_key":
        text = f"keys must be strings, got {show(value)}"
    elif kind == "extra_forbidden":
        text = f"unknown key '{last}'"
    elif kind == "missing":
        text = f"missing required key '{last}'"
    elif kind in _EXPECTED:
        text = f"expected {_EXPECTED[kind]}, got {show(value)}"
    elif kind in {"literal_error", "enum"}:
        text = f"must be {ctx.get('expected')}, got {show(value)}"
    elif kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        text = f"must be {sign} {ctx.get(key)}, got {show(value)}"
    elif kind == "value_error":
        text = str(error["msg"]).removeprefix("Value error, ")
    else:
        text = f"{error['msg']}, got {show(value)}"
    return text


def _file_location(root: Any, loc: Sequence[str | int]) -> list[str | int]:
    """Map a pydantic ``loc`` to the file's spelling: aliases, no union tags."""
    return _resolve(root, loc)[0]


def _closest_key(root: Any, loc: Sequence[str | int]) -> str | None:
    """For an unknown key at ``loc``: the closest key its model knows."""
    model = _unwrap(_resolve(root, loc[:-1])[1])
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return None
    known = [info.alias or name for name, info in model.model_fields.items()]
    close = difflib.get_close_matches(to_camel(str(loc[-1])), known, n=1)
    return close[0] if close else None


def _resolve(root: Any, loc: Sequence[str | int]) -> tuple[list[str | int], Any]:
    """The file-spelling path of ``loc`` and the annotation found there (``None``: unknown)."""
    out: list[str | int] = []
    annotation: Any = root
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(part, str) and part.startswith(TAG_PREFIX):
            annotation = _tagged(annotation).get(part)
            continue
        if part == "[key]":
            continue
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            name, alias = _field(annotation, part)
            out.append(alias if alias is not None else str(part))
            annotation = annotation.model_fields[name].annotation if name else None
        elif get_origin(annotation) in (list, tuple, set):
            out.append(_plain(part))
            annotation = (get_args(annotation) or (None,))[0]
        elif get_origin(annotation) in (dict, Mapping):
            out.append(str(part))
            args = get_args(annotation)
            annotation = args[1] if len(args) == 2 else None
        else:
            out.append(_plain(part))
            annotation = None
    return out, annotation


def _plain(part: object) -> str | int:
    if isinstance(part, int) and not isinstance(part, bool):
        return part
    return str(part)


def _unwrap(annotation: Any) -> Any:
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
            continue
        if origin in (Union, UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            if len(members) == 1:
                annotation = members[0]
                continue
        return annotation


def _tagged(annotation: Any) -> dict[str, Any]:
    if get_origin(annotation) not in (Union, UnionType):
        return {}
    tags: dict[str, Any] = {}
    for member in get_args(annotation):
        for meta in getattr(member, "__metadata__", ()):
            if isinstance(meta, Tag):
                tags[meta.tag] = member
    return tags


def _field(model: type[BaseModel], part: object) -> tuple[str | None, str | None]:
    for name, info in model.model_fields.items():
        if part in (name, info.alias):
            return name, info.alias or name
    return None, None
