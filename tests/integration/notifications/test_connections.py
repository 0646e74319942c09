"""Connections on the real service: hooks delivered to Slack-like receivers and by email,
alert routes with de-duplication, unknown connections reported, secrets masked."""

import json
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
from pydantic import ValidationError
from standardwebhooks import Webhook

from axonal_bus.errors import RemoteError
from axonal_events import (
    CATALOG,
    Comparison,
    ErrorCode,
    HookRequested,
    MetricCrossed,
    NotificationDelivered,
    NotificationFailed,
    StreamKind,
    new_event,
)
from axonal_events.connections import (
    AlertRouteSpec,
    ConnectionDeliveries,
    ConnectionRef,
    ConnectionSpec,
    ListAlertRoutes,
    ListConnections,
)
from axonal_events.rpcs import Notifications
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

from .conftest import call, intake_drained, project, publish

RUN = "0123456789abcdef0123456789abcdef"


def hook(project_name, connection, hub_ref="slack", **extra):
    data = HookRequested(
        run_uuid=RUN,
        project=project_name,
        hub_ref=hub_ref,
        trigger="failed",
        status="failed",
        connection=connection,
        name="train-resnet",
        kind="job",
        reason="OOMKilled",
        message="container exceeded its memory limit",
        **extra,
    )
    return new_event(data, source="/axonal/tests", project=project_name)


def crossed(project_name, at, rule="r1", step=7):
    data = MetricCrossed(
        run_uuid=RUN, project=project_name, metric="loss", value=5.5, step=step, rule_id=rule,
        comparison=Comparison.GT, threshold=5.0,
    )  # fmt: skip
    return new_event(data, source="/axonal/tests", project=project_name, time=at)


async def connect(nc, settings, **spec):
    return await call(nc, settings, Notifications.create_connection, ConnectionSpec(**spec))


async def connection_deliveries(nc, settings, project_name, name):
    query = ConnectionDeliveries(project=project_name, name=name)
    return (await call(nc, settings, Notifications.connection_deliveries, query)).deliveries


async def test_a_slack_hook_reaches_the_receiver_as_a_slack_message(
    notifications, nats_client, receiver
):
    name = project()
    created = await connect(
        nats_client, notifications, project=name, name="team-chat", kind="slack", url=receiver.url
    )
    assert created.secret is None  # only webhook connections sign
    event = hook(name, "team-chat")
    await publish(nats_client, notifications, event)

    [hit] = await wait_for(receiver.delivered, message="slack message arrives")
    assert hit.headers["content-type"] == "application/json"
    assert "webhook-signature" not in hit.headers
    doc = json.loads(hit.body)
    sentence = (
        f"run train-resnet ({RUN}) in {name} failed: OOMKilled - "
        "container exceeded its memory limit"
    )
    assert doc["text"] == sentence
    [title, facts, context] = doc["blocks"]
    assert title == {"type": "section", "text": {"type": "mrkdwn", "text": sentence}}
    assert facts["type"] == "section"
    shown = {f["text"].split("\n", 1)[0]: f["text"].split("\n", 1)[1] for f in facts["fields"]}
    assert shown["*Project*"] == name
    assert shown["*Run*"] == f"train-resnet ({RUN})"
    assert shown["*Status*"] == "failed"
    assert shown["*Kind*"] == "job"
    assert shown["*Reason*"] == "OOMKilled"
    assert shown["*Hook*"] == "slack"
    assert all(f["type"] == "mrkdwn" for f in facts["fields"])
    assert context["type"] == "context"
    assert context["elements"][0]["text"] == "Axonal · error"

    async def delivered():
        found = await connection_deliveries(nats_client, notifications, name, "team-chat")
        return found if found and found[0].status == "delivered" else None

    [delivery] = await wait_for(delivered, message="delivery recorded")
    assert (delivery.id, delivery.event_type) == (event.id, "hook.requested")
    assert (delivery.target_id, delivery.attempts[0].status_code) == (created.id, 200)

    stream = notifications.subjects.stream_name(StreamKind.EVENTS)
    subject = notifications.subjects.event("notification.delivered")
    [(_, raw, _)] = await wait_for(
        lambda: read_stream(nats_client.jetstream(), stream, subject), message="announced"
    )
    announced = CATALOG.decode(raw)
    assert isinstance(announced.data, NotificationDelivered)
    assert (announced.data.channel, announced.data.source_event_id) == ("slack", event.id)
    assert announced.correlationid == event.correlationid


async def test_a_webhook_hook_is_the_signed_cloudevent(notifications, nats_client, receiver):
    name = project()
    created = await connect(
        nats_client, notifications, project=name, name="ops", kind="webhook", url=receiver.url
    )
    assert created.secret is not None
    assert created.secret.startswith("whsec_")  # shown once, at creation
    event = hook(name, "ops", hub_ref="webhook")
    await publish(nats_client, notifications, event)

    [hit] = await wait_for(receiver.delivered, message="the signed hook arrives")
    assert hit.headers["content-type"] == "application/cloudevents+json"
    doc = Webhook(created.secret).verify(hit.body, hit.headers)
    assert hit.body == event.to_json()
    assert (doc["id"], doc["type"]) == (event.id, "axonal.hook.requested")
    assert (doc["data"]["hub_ref"], doc["data"]["status"]) == ("webhook", "failed")


async def test_an_email_hook_reaches_the_smtp_server(notifications, nats_client, mailbox):
    name = project()
    smtp = {
        "host": "127.0.0.1", "port": mailbox.port, "security": "none",
        "sender": "axonal@example.com", "to": ["ml-team@example.com", "oncall@example.com"],
    }  # fmt: skip
    await connect(nats_client, notifications, project=name, name="mail", kind="email", smtp=smtp)
    event = hook(name, "mail", hub_ref="email")
    await publish(nats_client, notifications, event)

    [envelope] = await wait_for(lambda: mailbox.messages, message="email accepted")
    assert envelope.mail_from == "axonal@example.com"
    assert envelope.rcpt_tos == ["ml-team@example.com", "oncall@example.com"]
    message = message_from_bytes(envelope.original_content, policy=email_policy)
    assert message["Subject"] == (
        f"[Axonal] run train-resnet ({RUN}) in {name} failed: OOMKilled - "
        "container exceeded its memory limit"
    )
    assert message["From"] == "axonal@example.com"
    assert message["To"] == "ml-team@example.com, oncall@example.com"
    assert event.id in message["Message-ID"]
    body = message.get_content().replace("\r\n", "\n")  # SMTP lines end in CRLF
    assert body.startswith(f"run train-resnet ({RUN}) in {name} failed")
    assert f"Project: {name}\n" in body
    assert "Reason: OOMKilled\n" in body
    assert f"Event: hook.requested {event.id}\n" in body

    async def delivered():
        found = await connection_deliveries(nats_client, notifications, name, "mail")
        return found if found and found[0].status == "delivered" else None

    [delivery] = await wait_for(delivered, message="email delivery recorded")
    assert delivery.attempts[0].status_code == 250


async def test_an_smtp_error_is_a_failed_attempt(start_notifications, nats_client, mailbox):
    settings = await start_notifications(retry_schedule=[0.05])
    mailbox.reply = "554 5.7.1 rejected by policy"
    name = project()
    smtp = {"host": "127.0.0.1", "port": mailbox.port, "security": "none",
            "sender": "a@example.com", "to": ["b@example.com"]}  # fmt: skip
    await connect(nats_client, settings, project=name, name="mail", kind="email", smtp=smtp)
    await publish(nats_client, settings, hook(name, "mail", hub_ref="email"))

    async def dead():
        found = await connection_deliveries(nats_client, settings, name, "mail")
        return found if found and found[0].status == "dead" else None

    [delivery] = await wait_for(dead, message="dead after the schedule")
    assert [a.status_code for a in delivery.attempts] == [554, 554]
    assert "rejected by policy" in delivery.attempts[0].error
    assert mailbox.messages == []


async def test_an_unknown_connection_is_announced_and_the_consumer_goes_on(
    notifications, nats_client, receiver
):
    name = project()
    await connect(
        nats_client, notifications, project=name, name="chat", kind="slack", url=receiver.url
    )
    missing = hook(name, "nowhere")
    wrong_kind = hook(name, "chat", hub_ref="discord")
    for event in (missing, wrong_kind):
        await publish(nats_client, notifications, event)
    await publish(nats_client, notifications, missing, msg_id="again")  # seen twice
    good = hook(name, "chat")
    await publish(nats_client, notifications, good)
    await wait_for(receiver.delivered, message="the next hook is still delivered")
    await wait_for(lambda: intake_drained(nats_client, notifications), message="events taken")

    stream = notifications.subjects.stream_name(StreamKind.EVENTS)
    subject = notifications.subjects.event("notification.failed")

    async def announced():
        found = await read_stream(nats_client.jetstream(), stream, subject)
        return found if len(found) >= 2 else None

    failures = [CATALOG.decode(raw) for _, raw, _ in await wait_for(announced, message="failed")]
    by_source = {f.data.source_event_id: f.data for f in failures}
    assert len(failures) == 2  # the hook seen twice is announced once
    assert all(isinstance(d, NotificationFailed) and d.final for d in by_source.values())
    assert by_source[missing.id].error == f"no connection named 'nowhere' in {name}"
    assert by_source[missing.id].target == "nowhere"
    assert "is a slack connection, the hook asks for discord" in by_source[wrong_kind.id].error
    [delivery] = await connection_deliveries(nats_client, notifications, name, "chat")
    assert delivery.id == good.id


async def test_an_alert_route_delivers_a_repeated_alert_once_per_window(
    notifications, nats_client, receiver
):
    name = project()
    await connect(
        nats_client, notifications, project=name, name="alerts", kind="mattermost",
        url=receiver.url,
    )  # fmt: skip
    spec = AlertRouteSpec(project=name, connection="alerts", events=["metric.crossed"])
    route = await call(nats_client, notifications, Notifications.create_alert_route, spec)
    assert route.dedup_seconds == 300
    t0 = datetime.now(UTC)
    first = crossed(name, t0)
    repeat = crossed(name, t0 + timedelta(seconds=120))
    other_rule = crossed(name, t0 + timedelta(seconds=130), rule="r2")
    later = crossed(name, t0 + timedelta(seconds=301))
    for event in (first, repeat, other_rule):
        await publish(nats_client, notifications, event)
    await wait_for(lambda: intake_drained(nats_client, notifications), message="taken")
    await publish(nats_client, notifications, later)
    await wait_for(lambda: intake_drained(nats_client, notifications), message="taken")

    async def sent():
        found = await connection_deliveries(nats_client, notifications, name, "alerts")
        return found if all(d.status == "delivered" for d in found) else None

    found = await wait_for(sent, message="deliveries done")
    assert sorted(d.id for d in found) == sorted([first.id, other_rule.id, later.id])
    assert len(receiver.delivered()) == 3
    texts = [json.loads(h.body)["text"] for h in receiver.delivered()]
    assert f"metric loss crossed 5 (gt) on run {RUN} in {name} at step 7: 5.5" in texts
    routes = await call(
        nats_client, notifications, Notifications.list_alert_routes, ListAlertRoutes(project=name)
    )
    assert [(r.id, r.connection, r.suppressed) for r in routes.routes] == [(route.id, "alerts", 1)]


async def test_secrets_are_masked_and_bad_connections_refused(notifications, nats_client):
    name = project()
    slack_url = "http://127.0.0.1:9/services/T000/B000/XXXXsecretXXXX"  # no DNS needed
    await connect(
        nats_client, notifications, project=name, name="chat", kind="slack", url=slack_url
    )
    await connect(
        nats_client, notifications, project=name, name="pager", kind="pagerduty",
        url="http://127.0.0.1:9/v2/enqueue", routing_key="R0UT1NGKEY0123456789abcd",
    )  # fmt: skip
    smtp = {
        "host": "127.0.0.1", "port": 465, "security": "tls", "username": "bot",
        "password": "hunter2-secret", "sender": "a@example.com", "to": ["b@example.com"],
    }  # fmt: skip
    await connect(nats_client, notifications, project=name, name="mail", kind="email", smtp=smtp)
    hooked = await connect(
        nats_client, notifications, project=name, name="generic", kind="webhook",
        url="http://127.0.0.1:9/hook",
    )  # fmt: skip
    assert hooked.secret.startswith("whsec_")

    listed = await call(
        nats_client, notifications, Notifications.list_connections, ListConnections(project=name)
    )
    text = listed.model_dump_json()
    for secret in ("XXXXsecretXXXX", "T000", "R0UT1NGKEY0123456789", "hunter2", "whsec_"):
        assert secret not in text
    shown = {c.name: c for c in listed.connections}
    assert shown["chat"].url == "http://127.0.0.1:9/****"
    assert shown["pager"].url == "http://127.0.0.1:9/****"
    assert shown["pager"].routing_key == "****abcd"
    assert shown["mail"].smtp.password == "****"
    assert shown["mail"].smtp.username == "bot"
    one = await call(
        nats_client, notifications, Notifications.get_connection,
        ConnectionRef(project=name, name="chat"),
    )  # fmt: skip
    assert one.url == "http://127.0.0.1:9/****"

    with pytest.raises(RemoteError, match="already exists") as taken:
        await connect(nats_client, notifications, project=name, name="chat", kind="slack",
                      url=slack_url)  # fmt: skip
    assert taken.value.code is ErrorCode.CONFLICT
    token_url = "http://169.254.169.254/hooks/T1/B1/tokentoken"
    with pytest.raises(RemoteError, match="cloud metadata") as refused:
        await connect(nats_client, notifications, project=name, name="x", kind="discord",
                      url=token_url)  # fmt: skip
    assert "tokentoken" not in str(refused.value)
    assert refused.value.code is ErrorCode.INVALID
    bad_mail = smtp | {"host": "10.1.2.3"}
    with pytest.raises(RemoteError, match="private") as private:
        await connect(nats_client, notifications, project=name, name="y", kind="email",
                      smtp=bad_mail)  # fmt: skip
    assert private.value.code is ErrorCode.INVALID
    spec = AlertRouteSpec(project=name, connection="nope", events=["run.failed"])
    with pytest.raises(RemoteError) as unknown:
        await call(nats_client, notifications, Notifications.create_alert_route, spec)
    assert unknown.value.code is ErrorCode.NOT_FOUND
    for bad, why in [
        ({"kind": "sms", "url": slack_url}, "Input should be 'webhook'"),
        ({"kind": "slack"}, "needs url"),
        ({"kind": "pagerduty"}, "needs routing_key"),
        ({"kind": "email"}, "needs smtp"),
        ({"kind": "teams", "url": "ftp://example.com/x"}, "http:// or https://"),
    ]:
        with pytest.raises(ValidationError, match=why):
            ConnectionSpec.model_validate({"project": name, "name": "z"} | bad)
    deleted = await call(
        nats_client, notifications, Notifications.delete_connection,
        ConnectionRef(project=name, name="chat"),
    )  # fmt: skip
    assert "chat" not in {c.name for c in deleted.connections}
    with pytest.raises(RemoteError) as gone:
        await call(
            nats_client, notifications, Notifications.get_connection,
            ConnectionRef(project=name, name="chat"),
        )  # fmt: skip
    assert gone.value.code is ErrorCode.NOT_FOUND
