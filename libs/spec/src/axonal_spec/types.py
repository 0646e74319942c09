"""IO types: parse a type string, coerce a value to it, check output → input compatibility.

Type strings are Polyaxon's names (``float``, ``s3``, ``git``, …) or Python typing spellings
(``List[float]``, ``Dict[str, int]``, ``Optional[int]``, ``list[int]``, ``int | None``).
Converted values stay JSON-compatible: dates and datetimes become ISO strings, timedeltas
seconds, structured types (``uri``, ``s3``, ``git``, …) keep their string or dict form.

Numbers and booleans are accepted for ``str`` (``12`` → ``"12"``, ``True`` → ``"true"``).
Booleans follow Polyaxon's ``to_bool``: ``True``/``False``, the numbers ``1``/``0`` and,
case-insensitively, the strings ``true t yes y on 1`` / ``false f no n off 0``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from axonal_spec.coercion import CONVERTERS, Mismatch, to_dict, to_list
from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.validation import validate

__all__ = [
    "ANY",
    "TYPE_NAMES",
    "IOType",
    "are_compatible",
    "convert",
    "parse_cli_params",
    "parse_type",
    "validate",
]

TYPE_NAMES: tuple[str, ...] = (
    *("any", "int", "float", "bool", "str", "dict", "dict_of_dicts", "list", "uri", "auth"),
    *("gcs", "s3", "wasb", "path", "image", "metric", "metadata", "date", "datetime"),
    *("timedelta", "uuid", "email", "event", "git", "artifacts", "dockerfile", "file"),
    "tensorboard",
)


@dataclass(frozen=True, slots=True)
class IOType:
    """A parsed type: ``name`` is one of :data:`TYPE_NAMES`; ``item`` is the element type of a
    ``list`` or the value type of a ``dict`` (``None`` = any); ``optional`` admits ``None``."""

    name: str
    item: IOType | None = None
    optional: bool = False

    @property
    def is_list(self) -> bool:
        return self.name == "list"

    def __str__(self) -> str:
        if self.name == "list" and self.item is not None:
            text = f"List[{self.item}]"
        elif self.name == "dict" and self.item is not None:
            text = f"Dict[str, {self.item}]"
        else:
            text = self.name
        return f"Optional[{text}]" if self.optional else text


ANY = IOType("any")

_ALIASES = {"Any": "any", "List": "list", "Dict": "dict", "Sequence": "list", "Mapping": "dict"}
_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_.]*)|(.))")


def parse_type(spec: str | None, *, is_list: bool = False, location: str = "type") -> IOType:
    """Parse a type string (``None``/empty = ``any``); ``is_list`` is the legacy ``isList``."""
    if spec is None or not spec.strip():
        parsed = ANY
    else:
        tokens = [(m.group(1) or m.group(2)) for m in _TOKEN.finditer(spec) if m.group(0).strip()]
        try:
            parsed, rest = _parse_union(tokens)
            if rest:
                raise _BadType(f"unexpected {rest[0]!r}")
        except _BadType as exc:
            hint = (
                "one of " + ", ".join(TYPE_NAMES) + ", or List[...], Dict[str, ...], Optional[...]"
            )
            raise SpecError.at(location, f"invalid type {spec!r}: {exc}", hint) from None
    if is_list and not parsed.is_list:
        return IOType("list", parsed)
    return parsed


class _BadType(Exception):
    pass


def _parse_union(tokens: list[str]) -> tuple[IOType, list[str]]:
    members: list[IOType | None] = []
    while True:
        member, tokens = _parse_atom(tokens)
        members.append(member)
        if not tokens or tokens[0] != "|":
            break
        tokens = tokens[1:]
    return _union(members), tokens


def _union(members: list[IOType | None]) -> IOType:
    real = [m for m in members if m is not None]
    if len(real) != 1:
        raise _BadType("only unions with None (Optional) are supported")
    found = real[0]
    optional = found.optional or len(real) != len(members)
    return IOType(found.name, found.item, optional)


def _parse_atom(tokens: list[str]) -> tuple[IOType | None, list[str]]:
    """One name with optional ``[...]`` arguments; ``None`` stands for the ``None`` type."""
    if not tokens or not re.match(r"[A-Za-z_]", tokens[0]):
        raise _BadType("a type name is missing")
    name, tokens = tokens[0].removeprefix("typing."), tokens[1:]
    args: list[IOType | None] = []
    if tokens and tokens[0] == "[":
        tokens = tokens[1:]
        while True:
            arg, tokens = _parse_union(tokens) if tokens[:1] != ["None"] else (None, tokens[1:])
            args.append(arg)
            if tokens[:1] == [","]:
                tokens = tokens[1:]
                continue
            if tokens[:1] != ["]"]:
                raise _BadType("']' is missing")
            tokens = tokens[1:]
            break
    if name in ("None", "NoneType"):
        return None, tokens
    return _build(_ALIASES.get(name, name), args), tokens


def _build(name: str, args: list[IOType | None]) -> IOType:
    if name == "Optional":
        if len(args) != 1:
            raise _BadType("Optional takes one type")
        return _union([*args, None])
    if name == "Union":
        return _union(args)
    if name == "list" and len(args) <= 1:
        return IOType("list", args[0] if args else None)
    if name == "dict" and len(args) in (0, 2):
        key = args[0] if args else None
        if key is not None and key.name not in ("str", "any"):
            raise _BadType("dict keys must be str")
        return IOType("dict", args[1] if args else None)
    if name not in TYPE_NAMES or args:
        if name in TYPE_NAMES:
            raise _BadType("bad arguments")
        close = difflib.get_close_matches(name, TYPE_NAMES, n=1)
        raise _BadType(
            f"unknown type {name!r}" + (f"; did you mean {close[0]!r}?" if close else "")
        )
    return IOType(name)


# ---------------------------------------------------------------------------------------------
# Values


def convert(io_type: IOType | str | None, value: Any, *, location: str) -> Any:
    """Coerce ``value`` to ``io_type``; ``None`` passes (required-ness is the caller's check).

    Raises :class:`SpecError` with every mismatch (``expected float, got 'abc'``), each at its
    own location (``inputs.lr``, ``inputs.tags[2]``, ``inputs.weights.a``).
    """
    target = io_type if isinstance(io_type, IOType) else parse_type(io_type, location=location)
    problems: list[Problem] = []
    result = _convert(target, value, location, problems, top=True)
    if problems:
        raise SpecError(problems)
    return result


def _convert(t: IOType, value: Any, loc: str, problems: list[Problem], *, top: bool) -> Any:
    if value is None:
        if not (top or t.optional or t.name == "any"):
            problems.append(Problem(loc, f"expected {t}, got None"))
        return None
    try:
        if t.item is not None:
            return _convert_items(t.item, t.is_list, value, loc, problems)
        return CONVERTERS[t.name](value)
    except Mismatch as exc:
        form = f" ({exc})" if str(exc) else ""
        problems.append(Problem(loc, f"expected {t}{form}, got {_show(value)}"))
        return value


def _convert_items(
    item: IOType, is_list: bool, value: Any, loc: str, problems: list[Problem]
) -> Any:
    """Elements of a ``List[item]`` or values of a ``Dict[str, item]``."""
    if is_list:
        return [
            _convert(item, v, join_location(loc, i), problems, top=False)
            for i, v in enumerate(to_list(value))
        ]
    return {
        k: _convert(item, v, join_location(loc, str(k)), problems, top=False)
        for k, v in to_dict(value).items()
    }


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------
# Compatibility and CLI params

_ACCEPTS: dict[str, frozenset[str]] = {
    "float": frozenset({"int", "metric"}),
    "metric": frozenset({"int", "float"}),
    "str": frozenset(
        {"path", "gcs", "s3", "wasb", "image", "email", "uuid", "date", "datetime", "uri"}
    ),
    "path": frozenset({"str", "gcs", "s3", "wasb"}),
    "image": frozenset({"str"}),
    "dict": frozenset({"dict_of_dicts", "metadata"}),
    "metadata": frozenset({"dict"}),
}


def are_compatible(output_type: IOType | str | None, input_type: IOType | str | None) -> bool:
    """Whether a value of ``output_type`` may feed an input of ``input_type``.

    ``any`` (or no type) fits everything; otherwise list-ness must match, element types must be
    compatible, and a scalar input accepts its own type plus widening (``int`` → ``float``) and
    string-like types (``path`` → ``str``).
    """
    out = output_type if isinstance(output_type, IOType) else parse_type(output_type)
    inp = input_type if isinstance(input_type, IOType) else parse_type(input_type)
    if "any" in (out.name, inp.name):
        return True
    if out.is_list != inp.is_list:
        return False
    if out.name in ("list", "dict") and out.name == inp.name:
        return are_compatible(out.item or ANY, inp.item or ANY)
    return out.name == inp.name or out.name in _ACCEPTS.get(inp.name, frozenset())


def parse_cli_params(args: Sequence[str], *, location: str = "-P") -> dict[str, Any]:
    """Parse ``-P name=value`` arguments into ``{name: value}``.

    Flow collections (``[1,2]``, ``{a: 1}``) and quoted strings are read as YAML; ``true``,
    ``false``, ``null`` and numbers written canonically (``5``, ``0.1``) become values; any
    other text stays a string (``0.10``, ``1e-3``, ``007``), which the IO type then converts,
    so a ``str`` input receives exactly what was typed.
    """
    params: dict[str, Any] = {}
    problems: list[Problem] = []
    for arg in args:
        name, sep, text = arg.partition("=")
        name = name.strip()
        if not sep or not name:
            problems.append(Problem(location, f"expected name=value, got {arg!r}"))
        elif name in params:
            problems.append(Problem(location, f"param {name!r} is given more than once"))
        else:
            try:
                params[name] = _cli_value(text.strip())
            except yaml.YAMLError as exc:
                reason = str(exc).splitlines()[0]
                problems.append(Problem(location, f"cannot read {arg!r} as YAML: {reason}"))
    if problems:
        raise SpecError(problems)
    return params


def _cli_value(raw: str) -> Any:
    if raw[:1] in ("[", "{", '"', "'"):
        return yaml.safe_load(raw)
    if raw in ("", "null", "~"):
        return None
    if raw in ("true", "false"):
        return raw == "true"
    for kind in (int, float):
        try:
            number = kind(raw)
        except ValueError:
            continue
        if repr(number) == raw:
            return number
    return raw
