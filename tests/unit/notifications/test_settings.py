"""Settings from the environment: comma-separated lists, a schedule in seconds."""

import ipaddress

import pytest
from pydantic import ValidationError

from axonal_notifications.settings import NotificationSettings


def test_defaults_refuse_private_targets_and_follow_standard_webhooks():
    settings = NotificationSettings()
    assert settings.attempt_timeout == 10
    assert settings.retry_schedule == [5, 300, 1800, 7200, 18000, 36000, 36000]
    assert settings.breaker_threshold == 5
    assert settings.target_policy().allow_networks == ()


def test_lists_come_comma_separated(monkeypatch):
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_ALLOW_NETWORKS", "127.0.0.1/32, 10.0.0.0/8")
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_ALLOW_HOSTS", "hooks.internal")
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_DENY_HOSTS", "")
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_RETRY_SCHEDULE", "0.01,0.02")
    settings = NotificationSettings()
    policy = settings.target_policy()
    assert policy.allow_networks == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
    )
    assert policy.allow_hosts == frozenset({"hooks.internal"})
    assert policy.deny_hosts == frozenset()
    assert settings.retry_schedule == [0.01, 0.02]


def test_bad_values_are_refused():
    with pytest.raises(ValidationError, match="seconds >= 0"):
        NotificationSettings(retry_schedule=[-1])
    with pytest.raises(ValidationError, match="does not appear to be an IPv4 or IPv6 network"):
        NotificationSettings(allow_networks=["not-a-network"])


def test_shared_variables_keep_their_names_and_the_service_its_prefix(monkeypatch):
    monkeypatch.setenv("AXONAL_DATABASE_URL", "postgresql://db.internal/axonal")
    monkeypatch.setenv("AXONAL_NAMESPACE", "prod")
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_CONCURRENCY", "8")
    monkeypatch.setenv("AXONAL_NOTIFICATIONS_POLL_INTERVAL", "0.25")
    monkeypatch.setenv("AXONAL_CONCURRENCY", "99")  # not a notifications variable
    settings = NotificationSettings()
    assert settings.database_url == "postgresql://db.internal/axonal"
    assert settings.subjects.namespace == "prod"
    assert (settings.concurrency, settings.poll_interval) == (8, 0.25)
