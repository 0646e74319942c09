"""Which attempts are announced, how, and under which id."""

from datetime import UTC, datetime

from axonal_events import NotificationDelivered, NotificationFailed
from axonal_events.webhooks import DeliveryStatus
from axonal_notifications.domain.announcements import announcement
from axonal_notifications.domain.deliveries import Job, Outcome, Verdict

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _job(event_type="run.failed", attempts=0, kind="slack"):
    return Job(
        "t1", "e1", event_type, "acme/p", "https://hooks.slack.com/services/T/B/secret",
        "", b"{}", attempts, 0, kind=kind, correlation_id="c1",
    )  # fmt: skip


def test_a_notification_through_a_connection_is_announced_with_its_latency_and_code():
    event = announcement(Outcome(_job(), AT, 12.5, 200), Verdict(DeliveryStatus.DELIVERED, 1))
    assert event is not None
    assert event.type == "axonal.notification.delivered"
    assert (event.project, event.correlationid) == ("acme/p", "c1")
    data = event.data
    assert isinstance(data, NotificationDelivered)
    assert (data.notification_id, data.source_event_id, data.channel) == ("t1:e1", "e1", "slack")
    assert (data.attempts, data.status_code, data.latency_ms) == (1, 200, 12.5)
    assert "secret" not in data.target  # chat webhook URLs carry tokens


def test_failed_attempts_say_whether_a_retry_is_left():
    retry = Verdict(DeliveryStatus.FAILED, 1, AT)
    first = announcement(Outcome(_job(), AT, 3.0, 503), retry)
    last = announcement(
        Outcome(_job(attempts=1), AT, 3.0, None, error="timeout"), Verdict(DeliveryStatus.DEAD, 2)
    )
    assert first is not None
    assert last is not None
    assert isinstance(first.data, NotificationFailed)
    assert isinstance(last.data, NotificationFailed)
    assert (first.data.final, first.data.error, first.data.status_code) == (
        False,
        "answered 503",
        503,
    )
    assert (last.data.final, last.data.error, last.data.attempts) == (True, "timeout", 2)
    assert first.id != last.id


def test_the_same_attempt_is_announced_under_the_same_id():
    outcome = Outcome(_job(), AT, 3.0, 200)
    verdict = Verdict(DeliveryStatus.DELIVERED, 1)
    first, again = announcement(outcome, verdict), announcement(outcome, verdict)
    assert first is not None
    assert again is not None
    assert first.id == again.id


def test_a_webhook_subscription_announces_recoveries_not_first_time_successes():
    first = Outcome(_job(kind="webhook"), AT, 1.0, 204)
    recovered = Outcome(_job(attempts=2, kind="webhook"), AT, 1.0, 204)
    assert announcement(first, Verdict(DeliveryStatus.DELIVERED, 1)) is None
    event = announcement(recovered, Verdict(DeliveryStatus.DELIVERED, 3))
    assert event is not None
    assert isinstance(event.data, NotificationDelivered)
    assert event.data.attempts == 3
    failed = Outcome(_job(kind="webhook"), AT, 1.0, 500)
    assert announcement(failed, Verdict(DeliveryStatus.FAILED, 1, AT)) is not None


def test_deliveries_of_notification_events_are_not_announced():
    job = _job("notification.failed")
    assert announcement(Outcome(job, AT, 1.0, 200), Verdict(DeliveryStatus.DELIVERED, 1)) is None
    assert announcement(Outcome(job, AT, 1.0, 500), Verdict(DeliveryStatus.DEAD, 1)) is None
