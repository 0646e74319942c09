"""Access events: what the api let a caller change (the audit trail of the HTTP edge)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["ApiWriteAudited"]


class ApiWriteAudited(EventData):
    """A caller's write through the api: who, what, on which object, from where, with what
    answer (refusals included; sign-in failures and telemetry ingestion are not recorded)."""

    type_name = "api.write_audited"

    actor: str = Field(description="The principal, ``key:<public key>`` or ``run:<uuid>``.")
    via: str = Field(description="root, token, session, key or run.")
    method: str
    route: str = Field(description="The route's template, e.g. /api/v1/{owner}/{project}/runs.")
    path: str = Field(description="The path as called: it names the object.")
    status: int = Field(description="The HTTP status the api answered.")
    org: str | None = Field(default=None, description="The organization the path names.")
    client: str | None = Field(default=None, description="The caller's address.")
    user_agent: str | None = None

    def subject_id(self) -> str | None:
        return self.path
