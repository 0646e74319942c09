"""Signatures verify with the Standard Webhooks reference implementation."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from axonal_notifications.domain.signing import new_secret, signed_headers
from axonal_testing.factories import run_event


def test_signed_event_verifies_and_tampering_does_not():
    secret = new_secret()
    assert secret.startswith("whsec_")
    event = run_event()
    body = event.to_json()
    headers = signed_headers(secret, event.id, datetime.now(UTC), body)
    assert headers["webhook-id"] == event.id
    assert json.loads(body) == Webhook(secret).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body.replace(b"succeeded", b"failed"), headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(body, headers)


def test_old_signatures_are_refused_by_receivers():
    secret = new_secret()
    body = b'{"a":1}'
    headers = signed_headers(secret, "m1", datetime.now(UTC) - timedelta(minutes=10), body)
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(secret).verify(body, headers)


def test_secrets_differ():
    assert len({new_secret() for _ in range(100)}) == 100
