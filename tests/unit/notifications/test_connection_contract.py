"""What a connection and an alert route must carry, by kind."""

import pytest
from pydantic import ValidationError

from axonal_events.connections import (
    PAGERDUTY_EVENTS_URL,
    AlertRouteConfig,
    ConnectionConfig,
    SmtpSecurity,
)

SMTP = {"host": "smtp.example.com", "sender": "a@example.com", "to": ["b@example.com"]}


def test_valid_connections_of_each_kind():
    for kind in ("webhook", "slack", "discord", "mattermost", "teams"):
        assert ConnectionConfig(name="n", kind=kind, url="https://example.com/x").url
    pager = ConnectionConfig(name="n", kind="pagerduty", routing_key="k")
    assert pager.url == PAGERDUTY_EVENTS_URL
    mail = ConnectionConfig(name="n", kind="email", smtp=SMTP)
    assert mail.smtp is not None
    assert (mail.smtp.port, mail.smtp.security) == (587, SmtpSecurity.STARTTLS)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"kind": "sms", "url": "https://e.com/"}, "Input should be 'webhook'"),
        ({"kind": "slack"}, "a slack connection needs url"),
        ({"kind": "slack", "url": "ftp://e.com/"}, "absolute http:// or https:// URL"),
        ({"kind": "slack", "url": "https://u:p@e.com/"}, "must not carry credentials"),
        ({"kind": "slack", "url": "https://e.com/", "routing_key": "k"}, "takes no routing_key"),
        ({"kind": "teams", "url": "https://e.com/", "smtp": SMTP}, "takes no smtp"),
        ({"kind": "pagerduty"}, "needs routing_key"),
        ({"kind": "email"}, "needs smtp"),
        ({"kind": "email", "smtp": SMTP, "url": "https://e.com/"}, "smtp only"),
        ({"kind": "email", "smtp": SMTP | {"to": []}}, "at least 1 item"),
        ({"kind": "email", "smtp": SMTP | {"to": ["nobody"]}}, "not an email address: nobody"),
        ({"kind": "email", "smtp": SMTP | {"sender": "x"}}, "sender"),
        ({"kind": "email", "smtp": SMTP | {"security": "ssl"}}, "'starttls', 'tls' or 'none'"),
        ({"name": "has space", "kind": "slack", "url": "https://e.com/"}, "name"),
    ],
)
def test_bad_connections_say_why(fields, why):
    with pytest.raises(ValidationError, match=why):
        ConnectionConfig.model_validate({"name": "n"} | fields)


def test_alert_routes_check_their_events_and_window():
    route = AlertRouteConfig(connection="c", events=["run.failed", "metric.crossed", "run.failed"])
    assert route.events == ["metric.crossed", "run.failed"]
    assert route.dedup_seconds == 300
    with pytest.raises(ValidationError, match=r"unknown event type 'run\.finished'"):
        AlertRouteConfig(connection="c", events=["run.finished"])
    with pytest.raises(ValidationError, match="matches no event type"):
        AlertRouteConfig(connection="c", events=["nothing.*"])
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        AlertRouteConfig(connection="c", events=["*"], dedup_seconds=-1)
