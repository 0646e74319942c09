"""Run tokens: what a run's process shows the api, valid for its own project only.

An HS256 JWT signed with the secret the agent and the api share
(``AXONAL_RUN_TOKEN_SECRET``): ``sub`` is the run's uuid, ``project`` its ``owner/name``,
``exp`` bounds its life. The agent gives it to the process as ``AXONAL_API_TOKEN``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import jwt

__all__ = ["ISSUER", "InvalidRunToken", "RunClaims", "issue_run_token", "verify_run_token"]

ISSUER = "axonal-agent"
_ALGORITHM = "HS256"


class InvalidRunToken(ValueError):
    """The token is not a run token signed with this secret, or it expired."""


@dataclass(frozen=True, slots=True)
class RunClaims:
    run_uuid: str
    project: str  # owner/name


def issue_run_token(
    secret: str, run_uuid: str, project: str, ttl: timedelta, *, now: datetime | None = None
) -> str:
    issued = now or datetime.now(UTC)
    claims = {
        "iss": ISSUER,
        "sub": run_uuid,
        "project": project,
        "iat": issued,
        "exp": issued + ttl,
    }
    return jwt.encode(claims, secret, algorithm=_ALGORITHM)


def verify_run_token(secret: str, token: str) -> RunClaims:
    """The run the token was issued to; :class:`InvalidRunToken` says why it is refused."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[_ALGORITHM],
            issuer=ISSUER,
            options={"require": ["exp", "sub", "iss"]},
        )
    except jwt.ExpiredSignatureError:
        raise InvalidRunToken("the run token expired") from None
    except jwt.InvalidTokenError as exc:
        raise InvalidRunToken(f"not a valid run token: {exc}") from None
    project = claims.get("project")
    if not isinstance(project, str) or "/" not in project:
        raise InvalidRunToken("not a valid run token: no project")
    return RunClaims(run_uuid=str(claims["sub"]), project=project)
