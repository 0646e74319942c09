"""Protected prompt labels: only a project's admins (and owners) put them on a version, or
delete a version that holds one."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Request

from axonal_api.access import refusal
from axonal_api.callers import Caller
from axonal_api.gateway import Gateway
from axonal_events.principals import Role
from axonal_events.prompts import DeletePrompt, ListPrompts, ProtectedLabelsOf
from axonal_events.rpcs import Registry

__all__ = ["check_deletion_rights", "check_label_rights"]


async def check_label_rights(
    request: Request,
    gw: Gateway,
    project: str,
    project_id: str,
    labels: Iterable[str],
) -> None:
    """Refuse (403) a caller below ``admin`` who would move a protected label."""
    wanted = set(labels)
    if wanted and not _admin(request, project):
        await _refuse_protected(request, gw, project, project_id, wanted, "move them")


async def check_deletion_rights(request: Request, gw: Gateway, deleted: DeletePrompt) -> None:
    """Refuse (403) a caller below ``admin`` who would delete a version with a protected label
    (the label asked for, or any label of the versions deleted)."""
    project = deleted.project or ""
    if _admin(request, project):
        return
    if deleted.label is not None:
        held = {deleted.label}
    else:
        query = ListPrompts(
            project_id=deleted.project_id, name=deleted.name, version=deleted.version, limit=1
        )
        page = await gw.call(Registry.list_prompts, query)
        held = {label for meta in page.data for label in meta.labels}
    verb = "delete versions that hold them"
    await _refuse_protected(request, gw, project, deleted.project_id, held, verb)


def _admin(request: Request, project: str) -> bool:
    who: Caller = request.state.caller
    return who.role_in(project) >= Role.ADMIN


async def _refuse_protected(
    request: Request, gw: Gateway, project: str, project_id: str, labels: set[str], verb: str
) -> None:
    protected = await gw.call(Registry.protected_labels, ProtectedLabelsOf(project_id=project_id))
    if hit := sorted(labels & set(protected.labels)):
        named = ", ".join(hit)
        why = f"protected labels in {project} ({named}): only its admins {verb}"
        raise refusal(request, 403, why)
