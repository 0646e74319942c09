"""``{{ }}`` templates: sandboxed Jinja rendering with native results, and reference checks.

A string that is one expression (``"{{ lr }}"``) renders to the expression's value (``0.1``);
anything else (``"--lr={{ lr }}"``) renders to a string, like Polyaxon's NativeEnvironment
but without its ``literal_eval`` of the joined text (a ``str`` input stays a string).
Templates run in an immutable sandbox with strict undefined names: ``{{ ''.__class__ }}``,
``{{ missing }}``, list mutation and huge ``*``/``**`` results are errors, not side effects.
Operations' data is not in the context: ``{{ ops.a.outputs.x }}`` and ``{{ dag.inputs.x }}``
are rejected with a hint to use ``ref: ops.a`` + ``value: outputs.x``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, TemplateSyntaxError, Undefined, meta, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.environment import Template
from jinja2.exceptions import SecurityError, TemplateError, UndefinedError
from jinja2.nativetypes import NativeCodeGenerator
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

from axonal_spec.errors import Problem, SpecError, join_location

__all__ = ["find_references", "is_template", "render"]

_MAX_SIZE = 100_000  # longest string/list a ``*`` may build
_MAX_EXPONENT = 1_000


class _CodeGenerator(NativeCodeGenerator):
    """Never fold expression outputs into text at compile time, so each stays native."""

    def _output_child_to_const(
        self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo
    ) -> Any:
        if isinstance(node, nodes.TemplateData):
            return super()._output_child_to_const(node, frame, finalize)
        raise nodes.Impossible


class _Sandbox(ImmutableSandboxedEnvironment):
    code_generator_class = _CodeGenerator
    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, int) and abs(right) > _MAX_EXPONENT:
            raise SecurityError(f"exponent {right} is too large")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                sized = isinstance(seq, str | list | tuple) and isinstance(times, int)
                if sized and len(seq) * times > _MAX_SIZE:
                    raise SecurityError(f"result longer than {_MAX_SIZE}")
        return super().call_binop(context, operator, left, right)

    def getattr(self, obj: Any, attribute: str) -> Any:
        """Keys win over methods: ``{{ inputs.values }}`` is the input named ``values``."""
        if isinstance(obj, Mapping) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


_ENV = _Sandbox(undefined=StrictUndefined, autoescape=False)
for _name in ("lipsum", "cycler", "joiner"):
    _ENV.globals.pop(_name, None)
_GLOBAL_NAMES = frozenset(_ENV.globals)


def is_template(value: object) -> bool:
    """Whether ``value`` is a string holding ``{{ … }}`` or ``{% … %}``."""
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def render(value: Any, context: Mapping[str, Any], *, location: str) -> Any:
    """Render every template string inside ``value`` (dicts and lists are walked, keys are not).

    Strings without templates are returned untouched. Raises :class:`SpecError` with every
    failing template, each at its own location.
    """
    problems: list[Problem] = []
    names = dict(context)
    result = _render(value, names, location, problems)
    if problems:
        raise SpecError(problems)
    return result


def find_references(value: Any, *, location: str = "") -> set[str]:
    """The top-level context names that the templates inside ``value`` read.

    Raises :class:`SpecError` for syntax errors and for ``ops.*``/``dag.*`` reads.
    """
    found: set[str] = set()
    problems: list[Problem] = []
    for where, source in _strings(value, location):
        try:
            tree = _parse(source)
        except TemplateSyntaxError as exc:
            problems.append(_syntax_problem(where, source, exc))
            continue
        problems.extend(_ops_problems(tree, source, where))
        found |= _undeclared(source)
    if problems:
        raise SpecError(problems)
    return found


def _strings(value: Any, loc: str) -> Iterable[tuple[str, str]]:
    stack = [(loc, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend((join_location(where, str(k)), v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list | tuple):
            stack.extend((join_location(where, i), v) for i, v in reversed(list(enumerate(item))))
        elif is_template(item):
            yield where, item


def _render(value: Any, context: dict[str, Any], loc: str, problems: list[Problem]) -> Any:
    if isinstance(value, Mapping):
        return {
            k: _render(v, context, join_location(loc, str(k)), problems) for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_render(v, context, join_location(loc, i), problems) for i, v in enumerate(value)]
    if not is_template(value):
        return value
    try:
        return _render_string(value, context, loc)
    except _Failed as exc:
        problems.extend(exc.problems)
        return value


class _Failed(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems


def _render_string(source: str, context: dict[str, Any], loc: str) -> Any:
    try:
        template, tree = _compile(source), _parse(source)
    except TemplateSyntaxError as exc:
        raise _Failed([_syntax_problem(loc, source, exc)]) from None
    refused = _ops_problems(tree, source, loc)
    if refused:
        raise _Failed(refused)
    try:
        return _run(template, context)
    except SecurityError as exc:
        raise _Failed([Problem(loc, f"unsafe template {_quote(source)}: {exc}")]) from None
    except UndefinedError as exc:
        raise _Failed([Problem(loc, _undefined_message(exc, source))]) from None
    except (TemplateError, ArithmeticError, TypeError, ValueError, LookupError) as exc:
        raise _Failed([Problem(loc, f"cannot render {_quote(source)}: {exc}")]) from None


def _run(template: Template, context: dict[str, Any]) -> Any:
    chunks = list(template.root_render_func(template.new_context(context)))
    if len(chunks) == 1:
        _reject_undefined(chunks[0])
        return chunks[0]
    return "".join(str(chunk) for chunk in chunks)  # str() of an Undefined raises


def _reject_undefined(value: Any, depth: int = 0) -> None:
    if isinstance(value, Undefined):
        str(value)  # StrictUndefined: raises UndefinedError / SecurityError
    elif depth < 20 and isinstance(value, list | tuple | set):
        for item in value:
            _reject_undefined(item, depth + 1)
    elif depth < 20 and isinstance(value, Mapping):
        for item in value.values():
            _reject_undefined(item, depth + 1)


@lru_cache(maxsize=4096)
def _compile(source: str) -> Template:
    return _ENV.from_string(source)


@lru_cache(maxsize=4096)
def _parse(source: str) -> nodes.Template:
    return _ENV.parse(source)


@lru_cache(maxsize=4096)
def _undeclared(source: str) -> frozenset[str]:
    return frozenset(meta.find_undeclared_variables(_parse(source)) - _GLOBAL_NAMES)


def _quote(source: str) -> str:
    text = source.strip().replace("\n", "\\n")
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _syntax_problem(loc: str, source: str, exc: TemplateSyntaxError) -> Problem:
    return Problem(loc, f"template syntax error in {_quote(source)}: {exc.message}")


_UNDEFINED = re.compile(r"^'([^']+)' is undefined$")


def _undefined_message(exc: UndefinedError, source: str) -> str:
    match = _UNDEFINED.match(exc.message or "")
    if match:
        return f"undefined {match.group(1)!r} in {_quote(source)}"
    return f"undefined value in {_quote(source)}: {exc.message}"


def _chain(node: nodes.Node) -> list[str] | None:
    """``ops.a["outputs"].x`` -> ``["ops", "a", "outputs", "x"]`` (``*`` for computed keys)."""
    parts: list[str] = []
    while True:
        if isinstance(node, nodes.Getattr):
            parts.append(node.attr)
            node = node.node
        elif isinstance(node, nodes.Getitem):
            key = node.arg.value if isinstance(node.arg, nodes.Const) else "*"
            parts.append(str(key))
            node = node.node
        elif isinstance(node, nodes.Name):
            parts.append(node.name)
            return parts[::-1]
        else:
            return None


def _ops_problems(tree: nodes.Node, source: str, loc: str) -> list[Problem]:
    problems: list[Problem] = []
    stack: list[nodes.Node] = [tree]
    while stack:
        node = stack.pop()
        chain = _chain(node) if isinstance(node, nodes.Getattr | nodes.Getitem) else None
        if chain and chain[0] in ("ops", "dag"):
            problems.append(_ops_problem(chain, source, loc))
        else:
            stack.extend(reversed(list(node.iter_child_nodes())))
    return problems


def _ops_problem(chain: list[str], source: str, loc: str) -> Problem:
    if chain[0] == "ops":
        ref, rest = f"ops.{chain[1]}", chain[2:]
    else:
        ref, rest = "dag", chain[1:]
    value = ".".join(rest) or ("inputs.<name>" if ref == "dag" else "outputs.<name>")
    return Problem(
        loc,
        f"templates cannot read {'.'.join(chain)!r} (in {_quote(source)})",
        f"use `ref: {ref}` with `value: {value}`",
    )
