"""Rich rendering of spec warnings: fields the agent ignores, the field path in yellow."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.text import Text

__all__ = ["render_warnings"]


def render_warnings(messages: Sequence[str]) -> Group:
    """One line per message; the `field` a message names (in backticks) stands out."""
    lines = []
    for message in messages:
        line = Text("warning: ", style="bold yellow")
        head, _, rest = message.partition("`")
        field, closed, tail = rest.partition("`")
        if closed:
            line.append(head)
            line.append(field, style="yellow")
            line.append(tail)
        else:
            line.append(message)
        lines.append(line)
    return Group(*lines)
