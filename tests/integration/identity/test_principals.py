"""Principals on the identity service: the first administrator comes from the settings and
follows them; tokens and passwords authenticate; roles come from direct and team grants."""

import uuid

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events.identity import CreateProjectRequest
from axonal_events.principals import (
    AuthenticateRequest,
    CreatePrincipalRequest,
    CreateTeamRequest,
    CreateTokenRequest,
    PasswordLoginRequest,
    RevokeTokenRequest,
    SetRoleRequest,
    SetTeamMemberRequest,
    SetTeamRoleRequest,
)
from axonal_events.rpcs import Identity
from axonal_identity.app import build_app
from axonal_identity.settings import IdentitySettings
from axonal_testing.waiting import wait_for


async def test_the_first_administrator_comes_from_the_settings_and_follows_them(
    service_settings, running_service, nats_client
):
    name, token = f"root-{uuid.uuid4().hex[:6]}", f"axt_{uuid.uuid4().hex}"
    first = service_settings(
        IdentitySettings, admin_name=name, admin_password="first-password", admin_token=token
    )
    await running_service(build_app(first))
    subjects = first.subjects
    who = await rpc.call(
        nats_client, subjects, Identity.authenticate, AuthenticateRequest(token=token)
    )
    assert (who.name, who.superuser) == (name, True)
    signed = await rpc.call(
        nats_client,
        subjects,
        Identity.login,
        PasswordLoginRequest(username=name, password="first-password"),
    )
    assert signed.expires_at is not None

    # started again with another password: the old one stops signing in, the new one works
    second = service_settings(IdentitySettings, admin_name=name, admin_password="second-password")
    await running_service(build_app(second))

    async def signs_in(password: str) -> bool:
        request = PasswordLoginRequest(username=name, password=password)
        try:
            await rpc.call(nats_client, subjects, Identity.login, request)
        except RemoteError:
            return False
        return True

    await wait_for(lambda: signs_in("second-password"), message="the new password works")
    assert not await signs_in("first-password")


async def test_roles_come_from_direct_and_team_grants_and_revoked_tokens_stop(
    identity, nats_client
):
    subjects, org = identity.subjects, f"org-{uuid.uuid4().hex[:6]}"

    async def call(method, request):
        return await rpc.call(nats_client, subjects, method, request)

    await call(Identity.create_project, CreateProjectRequest(owner=org, name="core"))
    ada = f"ada-{uuid.uuid4().hex[:6]}"
    await call(Identity.create_principal, CreatePrincipalRequest(name=ada))
    made = await call(Identity.create_token, CreateTokenRequest(principal=ada, name="ci"))
    await call(Identity.set_role, SetRoleRequest(principal=ada, org=org, role="viewer"))
    await call(Identity.create_team, CreateTeamRequest(org=org, name="ml"))
    await call(
        Identity.set_team_member,
        SetTeamMemberRequest(org=org, team="ml", principal=ada, member=True),
    )
    team = await call(
        Identity.set_team_role, SetTeamRoleRequest(org=org, team="ml", project="core", role="admin")
    )
    assert team.members == [ada]
    assert team.project_roles == {"core": "admin"}

    who = await call(Identity.authenticate, AuthenticateRequest(token=made.token))
    assert who.org_roles == {org: "viewer"}
    assert who.project_roles == {f"{org}/core": "admin"}

    await call(Identity.revoke_token, RevokeTokenRequest(principal=ada, token_id=made.id))
    with pytest.raises(RemoteError, match="invalid, expired or revoked"):
        await call(Identity.authenticate, AuthenticateRequest(token=made.token))
