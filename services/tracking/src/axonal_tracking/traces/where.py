"""``WHERE`` clauses of the trace reads, built from a list request's filters."""

from __future__ import annotations

from typing import Any

__all__ = ["Where"]


class Where:
    """``WHERE`` clauses with numbered parameters."""

    def __init__(self, project_id: str, alias: str = "") -> None:
        self.alias = f"{alias}." if alias else ""
        self.clauses: list[str] = []
        self.args: list[Any] = []
        self.add("project_id = {}", project_id)

    def add(self, clause: str, value: Any) -> None:
        if value is None or value == []:
            return
        self.args.append(value)
        self.clauses.append(self.alias + clause.format(f"${len(self.args)}"))

    def window(self, request: Any, column: str) -> None:
        self.add("environment = ANY({}::text[])", request.environment)
        self.add(f"{column} >= {{}}", request.from_timestamp)
        self.add(f"{column} < {{}}", request.to_timestamp)

    def sql(self) -> str:
        return " AND ".join(self.clauses)

    def next(self, value: Any) -> str:
        self.args.append(value)
        return f"${len(self.args)}"
