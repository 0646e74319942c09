"""Run tokens: signed for one run and project, refused when forged, tampered or expired."""

from datetime import UTC, datetime, timedelta

import pytest

from axonal_bus.run_tokens import InvalidRunToken, RunClaims, issue_run_token, verify_run_token

SECRET = "a-secret-of-at-least-32-bytes-long!"
RUN = "0" * 32


def test_a_token_names_its_run_and_project():
    token = issue_run_token(SECRET, RUN, "acme/vision", timedelta(hours=1))
    assert verify_run_token(SECRET, token) == RunClaims(run_uuid=RUN, project="acme/vision")


def test_another_secret_or_a_changed_token_is_refused():
    token = issue_run_token(SECRET, RUN, "acme/vision", timedelta(hours=1))
    with pytest.raises(InvalidRunToken, match="not a valid run token"):
        verify_run_token("another-secret-of-at-least-32-bytes", token)
    head, body, signature = token.split(".")
    with pytest.raises(InvalidRunToken, match="not a valid run token"):
        verify_run_token(SECRET, f"{head}.{body}x.{signature}")
    with pytest.raises(InvalidRunToken):
        verify_run_token(SECRET, "s3cret")


def test_an_expired_token_is_refused():
    issued = datetime.now(UTC) - timedelta(hours=2)
    token = issue_run_token(SECRET, RUN, "acme/vision", timedelta(hours=1), now=issued)
    with pytest.raises(InvalidRunToken, match="expired"):
        verify_run_token(SECRET, token)
