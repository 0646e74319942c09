"""Secrets are shown masked."""

from axonal_notifications.domain.secrets import MASK, mask_key, mask_url, redact


def test_urls_keep_scheme_and_host_only():
    assert mask_url("https://hooks.slack.com/services/T0/B0/xyz") == "https://hooks.slack.com/****"
    assert mask_url("http://127.0.0.1:8080/hook?token=x") == "http://127.0.0.1:8080/****"
    assert mask_url("https://user:pw@example.com/a") == "https://example.com/****"
    assert mask_url("https://example.com") == "https://example.com"
    assert mask_url("not a url") == MASK


def test_keys_show_at_most_their_tail():
    assert mask_key("R0UT1NGKEY0123456789abcd") == "****abcd"
    assert mask_key("short") == MASK


def test_redact_replaces_every_secret():
    url = "https://discord.com/api/webhooks/1/tok"
    text = f"ConnectError: {url} failed, key sekrit-key-123"
    shown = redact(text, [url, "sekrit-key-123", ""])
    assert shown == "ConnectError: https://discord.com/**** failed, key ****"
