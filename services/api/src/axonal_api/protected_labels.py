"""Protected prompt labels: only a project's admins (and owners) put them on a version."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Request

from axonal_api.access import refusal
from axonal_api.callers import Caller
from axonal_api.gateway import Gateway
from axonal_events.principals import Role
from axonal_events.prompts import ProtectedLabelsOf
from axonal_events.rpcs import Registry

__all__ = ["check_label_rights"]


async def check_label_rights(
    request: Request,
    gw: Gateway,
    project: str,
    project_id: str,
    labels: Iterable[str],
) -> None:
    """Refuse (403) a caller below ``admin`` who would move a protected label."""
    who: Caller = request.state.caller
    wanted = set(labels)
    if not wanted or who.role_in(project) >= Role.ADMIN:
        return
    protected = await gw.call(Registry.protected_labels, ProtectedLabelsOf(project_id=project_id))
    if hit := sorted(wanted & set(protected.labels)):
        named = ", ".join(hit)
        raise refusal(
            request, 403, f"protected labels in {project} ({named}): only its admins move them"
        )
