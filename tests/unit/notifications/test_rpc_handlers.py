"""RPC handlers called directly, with no server: a target the guard refuses is ``invalid``
before anything is stored, and a connection's URL is masked in the refusal."""

import pytest

from axonal_bus.errors import Invalid
from axonal_events import ErrorCode
from axonal_events.connections import ConnectionSpec
from axonal_events.webhooks import WebhookSpec
from axonal_notifications.connections.rpc import create_connection
from axonal_notifications.domain.targets import TargetGuard, TargetPolicy
from axonal_notifications.webhooks.rpc import create_webhook

from .test_targets import RESOLVER


class NoDatabase:
    """A context whose pool must not be reached: the refusal comes first."""

    guard = TargetGuard(RESOLVER, TargetPolicy())

    @property
    def pool(self):
        raise AssertionError("a refused target reached the database")


async def test_a_webhook_to_a_refused_target_is_invalid():
    spec = WebhookSpec(project="acme/demo", url="http://inside.example.com/hook", events=["*"])
    with pytest.raises(Invalid, match="private or reserved") as refused:
        await create_webhook(NoDatabase(), spec)
    assert refused.value.code is ErrorCode.INVALID


async def test_a_connection_to_a_refused_target_is_invalid_and_masked():
    url = "http://169.254.169.254/services/T1/B1/tokentoken"
    spec = ConnectionSpec(project="acme/demo", name="chat", kind="slack", url=url)
    with pytest.raises(Invalid, match="cloud metadata") as refused:
        await create_connection(NoDatabase(), spec)
    assert "tokentoken" not in str(refused.value)
    assert "http://169.254.169.254/****" in str(refused.value)


async def test_an_email_connection_checks_its_smtp_host():
    smtp = {"host": "inside.example.com", "sender": "a@example.com", "to": ["b@example.com"]}
    spec = ConnectionSpec(project="acme/demo", name="mail", kind="email", smtp=smtp)
    with pytest.raises(Invalid, match=r"inside\.example\.com is refused"):
        await create_connection(NoDatabase(), spec)


async def test_the_guard_allows_what_the_policy_allows():
    guard = TargetGuard(RESOLVER, TargetPolicy.parse(allow_hosts=["inside.example.com"]))
    await guard.check_url("https://inside.example.com/hook")
    await guard.check_host("inside.example.com")
