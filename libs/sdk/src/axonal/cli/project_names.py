"""A project named on the command line: ``owner/name``, or a name under the default owner."""

from __future__ import annotations

import os

from axonal.cli.output import fail

__all__ = ["owner_and_name", "split_name"]


def owner_and_name(name: str) -> tuple[str, str]:
    """``owner/name`` split; a bare name takes the owner of ``AXONAL_PROJECT`` (``default``)."""
    owner, sep, slug = name.partition("/")
    if sep:
        return owner, slug
    default = os.environ.get("AXONAL_PROJECT", "default/default").partition("/")[0] or "default"
    return default, name


def split_name(name: str) -> tuple[str, str]:
    """:func:`owner_and_name`, ending the command when either part is missing."""
    owner, slug = owner_and_name(name)
    if not owner or not slug:
        fail(f"project {name!r} is not owner/name", hint="e.g. axonal project rm acme/churn")
    return owner, slug
