"""The audit trail and protected prompt labels, on the embedded stack: every write a caller
attempts is recorded with who, what, where from and the answer; only organization admins read
it; it pages; nobody changes an entry; and only project admins move a protected label."""

from __future__ import annotations

import base64
import secrets

import httpx
import psycopg
import pytest

from axonal_events.catalog import PromptVersionCreated
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync


def _user(admin: httpx.Client, name: str) -> dict[str, str]:
    admin.post("/api/v1/principals", json={"name": name}).raise_for_status()
    made = admin.post(f"/api/v1/principals/{name}/tokens", json={"name": "audit"})
    made.raise_for_status()
    return {"Authorization": f"Bearer {made.json()['token']}"}


@pytest.fixture(scope="module")
def org(stack: RunningStack) -> str:
    name = f"audit{secrets.token_hex(3)}"
    with stack.http(timeout=30) as admin:
        admin.post("/api/v1/projects", json={"owner": name, "name": "a"}).raise_for_status()
    return name


def test_writes_are_recorded_with_who_what_where_and_the_answer(
    stack: RunningStack, org: str
) -> None:
    with stack.http(timeout=30) as admin:
        carol = _user(admin, f"{org}-carol")
        admin.put(f"/api/v1/{org}/a/members/{org}-carol", json={"role": "member"})
        made = admin.post(
            f"/api/v1/{org}/a/prompts",
            json={"name": "greet", "prompt": "hi"},
            headers={**carol, "User-Agent": "audit-test"},
        )
        assert made.status_code == 201, made.text
        refused = admin.put(
            f"/api/v1/{org}/a/prompt-protected-labels", json={"labels": []}, headers=carol
        )
        assert refused.status_code == 403

        def carols() -> list[dict[str, object]] | None:
            page = admin.get(f"/api/v1/orgs/{org}/audit", params={"actor": f"{org}-carol"})
            entries = page.json()["entries"]
            return entries if len(entries) == 2 else None

        entries = wait_for_sync(carols, timeout=20, message="carol's two writes audited")
        assert [(e["data"]["method"], e["data"]["status"]) for e in entries] == [
            ("PUT", 403),
            ("POST", 201),
        ]
        created = entries[1]
        assert created["type"] == "api.write_audited"
        assert created["project"] == f"{org}/a"
        assert created["data"]["route"] == "/api/v1/{owner}/{project}/prompts"
        assert created["data"]["client"] == "127.0.0.1"
        assert created["data"]["user_agent"] == "audit-test"

        # the services' own events are in the trail too, with the service as the actor
        def versions() -> list[str] | None:
            params = {"type": PromptVersionCreated.type_name}
            found = admin.get(f"/api/v1/orgs/{org}/audit", params=params).json()["entries"]
            return [e["actor"] for e in found] or None

        assert wait_for_sync(versions, timeout=20) == ["/axonal/registry"]

        # a project's creation is in its organization's trail, though its path names neither
        def creations() -> list[dict[str, object]] | None:
            params = {"type": "api.write_audited", "limit": 200}
            found = admin.get(f"/api/v1/orgs/{org}/audit", params=params).json()["entries"]
            return [e for e in found if e["data"]["route"] == "/api/v1/projects"] or None

        [creation] = wait_for_sync(creations, timeout=20, message="the project's creation")
        assert (creation["project"], creation["data"]["status"]) == (f"{org}/a", 201)


def test_only_organization_admins_read_the_trail_and_it_pages(
    stack: RunningStack, org: str
) -> None:
    with stack.http(timeout=30) as admin:
        viewer = _user(admin, f"{org}-viewer")
        admin.put(f"/api/v1/orgs/{org}/members/{org}-viewer", json={"role": "viewer"})
        assert admin.get(f"/api/v1/orgs/{org}/audit", headers=viewer).status_code == 403
        first = admin.get(f"/api/v1/orgs/{org}/audit", params={"limit": 2}).json()
        assert len(first["entries"]) == 2
        assert first["next_cursor"]
        second = admin.get(
            f"/api/v1/orgs/{org}/audit", params={"limit": 2, "cursor": first["next_cursor"]}
        ).json()
        seen = {e["event_id"] for e in first["entries"]}
        assert second["entries"]
        assert seen.isdisjoint(e["event_id"] for e in second["entries"])
        assert first["entries"][-1]["occurred_at"] >= second["entries"][0]["occurred_at"]
        bad = admin.get(f"/api/v1/orgs/{org}/audit", params={"cursor": "nope"})
        assert bad.status_code == 400


def test_an_audit_entry_cannot_be_changed(stack: RunningStack, org: str) -> None:
    with (
        psycopg.connect(stack.database_url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.RaiseException, match="append-only"),
    ):
        conn.execute("UPDATE identity.audit_log SET source = 'forged' WHERE org = %s", [org])


def test_only_project_admins_move_a_protected_label(stack: RunningStack, org: str) -> None:
    with stack.http(timeout=30) as admin:
        member = _user(admin, f"{org}-dev")
        admin.put(f"/api/v1/{org}/a/members/{org}-dev", json={"role": "member"})
        admin.put(f"/api/v1/{org}/a/prompt-protected-labels", json={"labels": ["production"]})
        body = {"name": "guarded", "prompt": "hi", "labels": ["production"]}
        refused = admin.post(f"/api/v1/{org}/a/prompts", json=body, headers=member)
        assert refused.status_code == 403
        assert "production" in refused.json()["message"]
        staged = admin.post(
            f"/api/v1/{org}/a/prompts", json={**body, "labels": ["staging"]}, headers=member
        )
        assert staged.status_code == 201, staged.text
        moved = admin.patch(
            f"/api/v1/{org}/a/prompts/guarded/versions/1",
            json={"labels": ["production"]},
            headers=member,
        )
        assert moved.status_code == 403
        # the Langfuse-compatible API answers the Langfuse way, for a key acting as a member:
        # a key acts with its maker's role, which an admin lowers after making it
        maker = _user(admin, f"{org}-keymaker")
        admin.put(f"/api/v1/{org}/a/members/{org}-keymaker", json={"role": "admin"})
        key = admin.post(f"/api/v1/projects/{org}/a/api-keys", json={}, headers=maker).json()
        admin.put(f"/api/v1/{org}/a/members/{org}-keymaker", json={"role": "member"})
        pair = base64.b64encode(f"{key['public_key']}:{key['secret_key']}".encode()).decode()
        public = admin.post(
            "/api/public/v2/prompts",
            json={"name": "guarded", "prompt": "hi", "labels": ["production"], "type": "text"},
            headers={"Authorization": f"Basic {pair}"},
        )
        assert public.status_code == 403
        assert public.json()["error"] == "ForbiddenError"
        # an admin may
        allowed = admin.patch(
            f"/api/v1/{org}/a/prompts/guarded/versions/1", json={"labels": ["production"]}
        )
        assert allowed.status_code == 200, allowed.text
        # deleting a version that holds a protected label is an admin's too
        basic = {"Authorization": f"Basic {pair}"}
        for asked in ({"version": 1}, {"label": "production"}, {}):
            kept = admin.delete("/api/public/v2/prompts/guarded", params=asked, headers=basic)
            assert kept.status_code == 403, (asked, kept.text)
            assert "production" in kept.json()["message"]
        other = admin.post(f"/api/v1/{org}/a/prompts", json={**body, "labels": []}, headers=member)
        version = other.json()["version"]
        dropped = admin.delete(
            "/api/public/v2/prompts/guarded", params={"version": version}, headers=basic
        )
        assert dropped.status_code == 204, dropped.text
        mine = admin.post(f"/api/v1/projects/{org}/a/api-keys", json={}).json()
        pair = base64.b64encode(f"{mine['public_key']}:{mine['secret_key']}".encode()).decode()
        whole = admin.delete(
            "/api/public/v2/prompts/guarded", headers={"Authorization": f"Basic {pair}"}
        )
        assert whole.status_code == 204, whole.text
