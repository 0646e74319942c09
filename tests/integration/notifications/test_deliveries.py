"""Events on the bus become signed POSTs: once per subscription, retried, disabled by 410,
cut by the timeout, refused for forbidden targets, replayed on request."""

import json
from datetime import timedelta

import pytest
from pydantic import ValidationError
from standardwebhooks import Webhook

from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, RunStatus
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import ListWebhooks, ReplayDeliveries, WebhookSpec
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

from .conftest import call, deliveries, intake_drained, project, publish


async def subscribe(nc, settings, url, events, **extra):
    spec = WebhookSpec(
        project=extra.pop("project", None) or project(), url=url, events=events, **extra
    )
    return await call(nc, settings, Notifications.create_webhook, spec)


async def test_run_succeeded_is_posted_once_signed_as_the_cloudevent(
    notifications, nats_client, receiver
):
    hook = await subscribe(nats_client, notifications, receiver.url, ["run.succeeded"])
    assert hook.secret.startswith("whsec_")
    assert hook.enabled
    event = run_event(RunStatus.SUCCEEDED, project=hook.project)
    await publish(nats_client, notifications, run_event(RunStatus.FAILED, project=hook.project))
    await publish(nats_client, notifications, run_event(RunStatus.SUCCEEDED, project="acme/else"))
    await publish(nats_client, notifications, event)
    await publish(nats_client, notifications, event, msg_id="again")  # a redelivered event

    await wait_for(lambda: intake_drained(nats_client, notifications), message="events taken")

    async def delivered():
        found = await deliveries(nats_client, notifications, hook)
        return found if found and found[0].status == "delivered" else None

    [delivery] = await wait_for(delivered, message="one delivery, delivered")  # so: one POST
    [hit] = receiver.hits
    assert hit.headers["content-type"] == "application/cloudevents+json"
    assert hit.headers["webhook-id"] == event.id
    doc = Webhook(hook.secret).verify(hit.body, hit.headers)
    assert hit.body == event.to_json()
    assert doc["specversion"] == "1.0"
    assert (doc["id"], doc["source"], doc["type"]) == (
        event.id,
        event.source,
        "axonal.run.succeeded",
    )
    assert doc["data"]["status"] == "succeeded"
    assert doc["project"] == hook.project
    assert delivery.id == event.id
    assert delivery.event_type == "run.succeeded"
    [attempt] = delivery.attempts
    assert (attempt.number, attempt.status_code, attempt.error) == (1, 200, None)
    assert attempt.response_excerpt == "answered 200"
    listed = await call(
        nats_client, notifications, Notifications.list_webhooks, ListWebhooks(project=hook.project)
    )
    assert [(w.id, w.secret) for w in listed.webhooks] == [(hook.id, None)]  # shown once only


async def test_receiver_down_then_back_gets_every_event_once(
    start_notifications, nats_client, receiver
):
    settings = await start_notifications(
        retry_schedule=[0.05] + [0.3] * 40, breaker_threshold=3, breaker_cooldown=0.3
    )
    hook = await subscribe(nats_client, settings, receiver.url, ["run.*"])
    receiver.status = 500
    events = [run_event(RunStatus.SUCCEEDED, project=hook.project) for _ in range(10)]
    for event in events:
        await publish(nats_client, settings, event)
    await wait_for(lambda: len(receiver.hits) >= 10, message="first attempts answered 500")

    async def tripped():
        found = await call(
            nats_client, settings, Notifications.list_webhooks, ListWebhooks(project=hook.project)
        )
        return found.webhooks[0].consecutive_failures >= 3

    await wait_for(tripped, message="circuit breaker counts the failures")
    await receiver.stop()  # now connections are refused

    async def refused():
        found = await deliveries(nats_client, settings, hook)
        return any(a.status_code is None and a.error for d in found for a in d.attempts)

    await wait_for(refused, timeout=30, message="an attempt refused while the receiver is down")
    receiver.status = 200
    await receiver.start()

    async def all_recorded():
        found = await deliveries(nats_client, settings, hook)
        return found if len(found) == 10 and all(d.status == "delivered" for d in found) else None

    # one delivery per event, each delivered: no further POST can come
    found = await wait_for(all_recorded, timeout=30, message="all delivered")
    ids = [h.headers["webhook-id"] for h in receiver.delivered()]
    assert sorted(ids) == sorted(e.id for e in events)  # every event, none twice
    attempts = [a for d in found for a in d.attempts]
    assert len(found) == 10
    assert all(d.attempts[-1].status_code == 200 for d in found)
    assert all(d.attempts[0].status_code != 200 for d in found)  # the breaker held some back
    assert any(a.status_code == 500 for a in attempts)
    assert any(a.status_code is None and a.error for a in attempts)  # connection refused
    assert all([a.number for a in d.attempts] == list(range(1, len(d.attempts) + 1)) for d in found)


async def test_410_gone_disables_the_subscription(notifications, nats_client, receiver):
    hook = await subscribe(nats_client, notifications, receiver.url, ["run.*"])
    receiver.status = 410
    await publish(nats_client, notifications, run_event(project=hook.project))

    async def disabled():
        found = await call(
            nats_client, notifications, Notifications.list_webhooks,
            ListWebhooks(project=hook.project),
        )  # fmt: skip
        return found.webhooks[0] if not found.webhooks[0].enabled else None

    info = await wait_for(disabled, message="disabled")
    assert "410 Gone" in info.disabled_reason
    await publish(nats_client, notifications, run_event(project=hook.project))
    await wait_for(lambda: intake_drained(nats_client, notifications), message="event taken")
    assert len(receiver.hits) == 1  # nothing more is sent
    [delivery] = await deliveries(nats_client, notifications, hook)
    assert delivery.status == "dead"
    with pytest.raises(RemoteError, match="disabled") as refused:
        await call(
            nats_client, notifications, Notifications.replay,
            ReplayDeliveries(project=hook.project, webhook_id=hook.id),
        )  # fmt: skip
    assert refused.value.code is ErrorCode.INVALID


async def test_a_hanging_receiver_is_cut_by_the_timeout(notifications, nats_client, receiver):
    hook = await subscribe(nats_client, notifications, receiver.url, ["run.succeeded"])
    receiver.status = None  # never answers

    async def timed_out():
        found = await deliveries(nats_client, notifications, hook)
        return found[0].attempts if found and found[0].attempts else None

    await publish(nats_client, notifications, run_event(project=hook.project))
    [attempt, *_] = await wait_for(timed_out, message="attempt recorded")
    assert attempt.status_code is None
    assert "timeout" in attempt.error
    assert 450 <= attempt.latency_ms < 2000  # attempt_timeout is 0.5 s


async def test_replay_sends_a_dead_delivery_again(notifications, nats_client, receiver):
    hook = await subscribe(nats_client, notifications, receiver.url, ["run.succeeded"])
    receiver.status = 503
    event = run_event(project=hook.project)
    await publish(nats_client, notifications, event)

    async def dead():
        found = await deliveries(nats_client, notifications, hook, status="dead")
        return found or None

    [delivery] = await wait_for(dead, message="dead after the schedule")
    assert [a.status_code for a in delivery.attempts] == [503] * 4  # 1 + 3 retries
    second = timedelta(seconds=1)
    for window in (
        {"until": delivery.created_at},  # the window ends before it
        {"since": delivery.created_at + second},  # the window starts after it
    ):
        outside = ReplayDeliveries(project=hook.project, webhook_id=hook.id, **window)
        assert (await call(nats_client, notifications, Notifications.replay, outside)).replayed == 0
    receiver.status = 200
    replay = ReplayDeliveries(
        project=hook.project,
        webhook_id=hook.id,
        since=delivery.created_at,
        until=delivery.created_at + second,
    )
    result = await call(nats_client, notifications, Notifications.replay, replay)
    assert result.replayed == 1
    await wait_for(receiver.delivered, message="replayed delivery arrives")
    assert receiver.delivered()[0].headers["webhook-id"] == event.id

    async def delivered():
        found = await deliveries(nats_client, notifications, hook)
        return found[0] if found[0].status == "delivered" else None

    again = await wait_for(delivered, message="recorded")
    assert [a.status_code for a in again.attempts] == [503, 503, 503, 503, 200]
    one = ReplayDeliveries(project=hook.project, webhook_id=hook.id, delivery_id=event.id)
    assert (await call(nats_client, notifications, Notifications.replay, one)).replayed == 1
    await wait_for(lambda: len(receiver.delivered()) == 2, message="sent once more")
    missing = ReplayDeliveries(project=hook.project, webhook_id=hook.id, delivery_id="nope")
    with pytest.raises(RemoteError) as unknown:
        await call(nats_client, notifications, Notifications.replay, missing)
    assert unknown.value.code is ErrorCode.NOT_FOUND


async def test_forbidden_targets_and_unknown_events_are_refused(notifications, nats_client):
    for url, why in [
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata"),
        ("http://metadata.google.internal/", "metadata service"),
        ("http://127.0.0.2:9/hook", "loopback"),  # only 127.0.0.1 is allowed here
        ("http://10.0.0.1/hook", "private"),
    ]:
        with pytest.raises(RemoteError, match=why) as caught:
            await subscribe(nats_client, notifications, url, ["run.*"])
        assert caught.value.code is ErrorCode.INVALID
    with pytest.raises(ValidationError, match=r"unknown event type 'run\.finished'"):
        WebhookSpec(project="acme/demo", url="https://example.com/", events=["run.finished"])
    raw = {"project": "acme/demo", "url": "https://example.com/", "events": ["nothing.*"]}
    reply = await nats_client.request(
        Notifications.create_webhook.subject(notifications.subjects), json.dumps(raw).encode()
    )
    doc = json.loads(reply.data)
    assert doc["code"] == "invalid"
    assert "matches no event type" in doc["message"]
