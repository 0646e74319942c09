"""A project named on the command line (``owner/name``, or a name under the default owner),
and the settings kept per project (retention, quotas)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from axonal.cli.api import api
from axonal.cli.output import fail

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["change_setting", "owner_and_name", "split_name"]

M = TypeVar("M", bound="BaseModel")


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


def change_setting(
    name: str,
    setting: str,
    model: type[M],
    values: Callable[[M], BaseModel],
    given: Mapping[str, int | None],
    api_url: str | None,
) -> M:
    """Read the project's ``setting``, change the values ``given`` (0: unset, ``None``: kept)
    and write it back; the project's setting as the api answers."""
    owner, slug = split_name(name)
    path = f"/api/v1/projects/{owner}/{slug}/{setting}"
    with api(api_url) as client:
        held: dict[str, Any] = values(client.get(path, model)).model_dump()
        held.update({key: value or None for key, value in given.items() if value is not None})
        return client.put(path, model, json=held)
