"""``@observe``: one span per call of a sync, async or generator (sync or async) function.

A generator's span starts with the call and ends when the generator ends (exhausted, closed
or failed); its output is what it yielded. While the generator body runs, its span is the
current one, so spans it opens nest under it; between items the caller's context is back.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import AsyncGenerator, Callable, Generator, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, overload

from axonal._trace_attrs import arguments, observation_attributes, stream_output
from axonal._trace_core import open_span, record_error, start_span

if TYPE_CHECKING:
    from opentelemetry.trace import Span

__all__ = ["observe"]

F = TypeVar("F", bound=Callable[..., Any])


class _Call:
    """How one decorated function is traced."""

    def __init__(
        self, func: Callable[..., Any], name: str | None, as_type: str, inputs: bool, outputs: bool
    ) -> None:
        self.func = func
        self.name = name or func.__name__
        self.as_type = as_type
        self.inputs = inputs
        self.outputs = outputs

    def attributes(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        given = arguments(self.func, args, kwargs) if self.inputs else None
        return observation_attributes(as_type=self.as_type, input=given)

    def finish(self, span: Span, output: Any) -> None:
        if self.outputs and output is not None:
            span.set_attributes(observation_attributes(output=output))


def _sync(call: _Call) -> Callable[..., Any]:
    @functools.wraps(call.func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with open_span(call.name, call.attributes(args, kwargs)) as span:
            result = call.func(*args, **kwargs)
            call.finish(span, result)
            return result

    return wrapper


def _async(call: _Call) -> Callable[..., Any]:
    @functools.wraps(call.func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        with open_span(call.name, call.attributes(args, kwargs)) as span:
            result = await call.func(*args, **kwargs)
            call.finish(span, result)
            return result

    return wrapper


class _Streamed:
    """The span of one generator call: current while the body runs, ended with the generator."""

    def __init__(self, call: _Call, span: Span) -> None:
        from opentelemetry import trace  # noqa: PLC0415 - loads with the first span

        self.call = call
        self.span = span
        self.inside = trace.set_span_in_context(span)
        self.items: list[Any] = []

    @contextmanager
    def step(self) -> Iterator[None]:
        """Run one step of the body with the span current."""
        from opentelemetry import context  # noqa: PLC0415

        token = context.attach(self.inside)
        try:
            yield
        finally:
            context.detach(token)

    @contextmanager
    def lifetime(self) -> Iterator[None]:
        """Fail the span if the generator fails (closing it is no failure); end it at the end."""
        try:
            yield
        except Exception as exc:
            record_error(self.span, exc)
            raise
        finally:
            self.call.finish(self.span, stream_output(self.items))
            self.span.end()


def _generator(call: _Call) -> Callable[..., Any]:
    @functools.wraps(call.func)
    def wrapper(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        span = start_span(call.name, call.attributes(args, kwargs))
        return _stream(_Streamed(call, span), call.func(*args, **kwargs))

    return wrapper


def _stream(run: _Streamed, inner: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
    sent: Any = None
    with run.lifetime(), contextlib.closing(inner):
        while True:
            with run.step():
                try:
                    item = inner.send(sent)
                except StopIteration as stop:
                    return stop.value
            run.items.append(item)
            sent = yield item


def _async_generator(call: _Call) -> Callable[..., Any]:
    @functools.wraps(call.func)
    def wrapper(*args: Any, **kwargs: Any) -> AsyncGenerator[Any, Any]:
        span = start_span(call.name, call.attributes(args, kwargs))
        return _astream(_Streamed(call, span), call.func(*args, **kwargs))

    return wrapper


async def _astream(run: _Streamed, inner: AsyncGenerator[Any, Any]) -> AsyncGenerator[Any, Any]:
    sent: Any = None
    async with contextlib.aclosing(inner):
        with run.lifetime():
            while True:
                with run.step():
                    try:
                        item = await inner.asend(sent)
                    except StopAsyncIteration:
                        return
                run.items.append(item)
                sent = yield item


@overload
def observe(func: F) -> F: ...


@overload
def observe(
    *,
    name: str | None = None,
    as_type: str = "span",
    capture_input: bool = True,
    capture_output: bool = True,
) -> Callable[[F], F]: ...


def observe(
    func: F | None = None,
    *,
    name: str | None = None,
    as_type: str = "span",
    capture_input: bool = True,
    capture_output: bool = True,
) -> F | Callable[[F], F]:
    """Trace every call of the decorated function as an observation (``@observe`` or
    ``@observe(name=..., as_type="generation")``).

    Inputs are the bound arguments, the output the return value (a generator's: what it
    yielded), both JSON-encoded; an exception marks the observation ERROR and propagates.
    """

    def decorate(target: F) -> F:
        call = _Call(target, name, as_type, capture_input, capture_output)
        if inspect.isasyncgenfunction(target):
            return _async_generator(call)  # type: ignore[return-value]
        if inspect.iscoroutinefunction(target):
            return _async(call)  # type: ignore[return-value]
        if inspect.isgeneratorfunction(target):
            return _generator(call)  # type: ignore[return-value]
        return _sync(call)  # type: ignore[return-value]

    return decorate(func) if func is not None else decorate
