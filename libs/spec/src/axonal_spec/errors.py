"""The one error type of the spec library: where, and what is wrong, in one line each.

A :class:`SpecError` carries one or more :class:`Problem` s, so everything wrong with a file
is reported at once. Locations are dotted paths in the file's own (camelCase) spelling:
``run.container.resources.limits``, ``matrix.params.lr``, ``operations[2].dependencies``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Problem", "SpecError", "join_location"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong: ``location`` (``""`` for the whole file) and a one-line ``message``."""

    location: str
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        where = self.location or "(file)"
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}: {self.message}{hint}"


def join_location(*parts: str | int) -> str:
    """``join_location("run", "operations", 2, "name")`` -> ``run.operations[2].name``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part:
            out = f"{out}.{part}" if out else part
    return out


class SpecError(ValueError):
    """A polyaxonfile is invalid; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[Problem] | Problem, *, source: str | None = None) -> None:
        self.problems: tuple[Problem, ...] = (
            (problems,) if isinstance(problems, Problem) else tuple(problems)
        )
        if not self.problems:
            raise ValueError("a SpecError needs at least one problem")
        self.source = source
        super().__init__(self._render())

    @classmethod
    def at(cls, location: str, message: str, hint: str | None = None) -> SpecError:
        return cls(Problem(location, message, hint))

    @classmethod
    def collect(cls, errors: Iterable[SpecError], *, source: str | None = None) -> SpecError:
        """Merge several errors into one."""
        return cls([p for e in errors for p in e.problems], source=source)

    def prefixed(self, *parts: str | int) -> SpecError:
        """The same problems, located under ``parts`` (for nested documents)."""
        prefix = join_location(*parts)
        return SpecError(
            [
                Problem(
                    join_location(prefix, p.location) if p.location else prefix, p.message, p.hint
                )
                for p in self.problems
            ],
            source=self.source,
        )

    def _render(self) -> str:
        head = f"{self.source}: " if self.source else ""
        if len(self.problems) == 1:
            return head + str(self.problems[0])
        lines = "\n".join(f"  - {p}" for p in self.problems)
        return f"{head}{len(self.problems)} problems:\n{lines}"
