"""Alert identity and de-duplication within a route's window (event time)."""

from datetime import UTC, datetime, timedelta

from axonal_events import Comparison, MetricCrossed, RunStatus, new_event
from axonal_notifications.domain.alerts import Route, admit, alert_key, matching
from axonal_notifications.domain.filters import Subscription
from axonal_notifications.domain.hooks import HookCall, refusal
from axonal_testing.factories import run_event

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def route(events=("metric.crossed",), seconds=300, route_id="r"):
    return Route(Subscription(route_id, "acme/demo", events), "c1", timedelta(seconds=seconds))


def crossed(at, rule="rule-1", run="run-1"):
    data = MetricCrossed(
        run_uuid=run, project="acme/demo", metric="loss", value=6, step=1, rule_id=rule,
        comparison=Comparison.GT, threshold=5,
    )  # fmt: skip
    return new_event(data, source="/t", project="acme/demo", time=at)


def test_the_key_is_type_run_and_rule():
    assert alert_key(crossed(T0)) == "metric.crossed:run-1:rule-1"
    assert alert_key(run_event(RunStatus.FAILED, run_uuid="u")) == "run.failed:u"


def test_matching_uses_the_route_filters():
    failing = route(events=("run.failed",), route_id="f")
    both = [route(), failing]
    assert [a.route.id for a in matching(both, crossed(T0))] == ["r"]
    assert [a.route.id for a in matching(both, run_event(RunStatus.FAILED))] == ["f"]
    assert matching(both, run_event(RunStatus.SUCCEEDED)) == []


def test_repeats_within_the_window_are_suppressed_and_counted():
    r = route()
    events = [crossed(T0 + timedelta(seconds=s)) for s in (0, 100, 299, 300, 450, 601)]
    events.append(crossed(T0 + timedelta(seconds=50), rule="rule-2"))
    alerts = [a for e in reversed(events) for a in matching([r], e)]  # any arrival order
    admission = admit(alerts, {})
    sent = sorted((a.key.rsplit(":", 1)[1], a.at - T0) for a in admission.sent)
    seconds = [(rule, int(delta.total_seconds())) for rule, delta in sent]
    assert seconds == [("rule-1", 0), ("rule-1", 300), ("rule-1", 601), ("rule-2", 50)]
    assert admission.suppressed == {("r", "metric.crossed:run-1:rule-1"): 3}
    assert admission.last_sent[("r", "metric.crossed:run-1:rule-1")] == T0 + timedelta(seconds=601)


def test_the_last_delivery_stored_counts_and_a_zero_window_sends_all():
    [alert] = matching([route()], crossed(T0 + timedelta(seconds=10)))
    slot = (alert.route.id, alert.key)
    assert admit([alert], {slot: T0}).sent == ()
    assert admit([alert], {slot: T0 - timedelta(hours=1)}).sent == (alert,)
    [zero] = matching([route(seconds=0)], crossed(T0))
    assert admit([zero, zero], {}).sent == (zero, zero)


def test_a_hook_needs_a_connection_of_its_kind():
    call = HookCall("acme/demo", "chat", "slack")
    assert refusal(call, "slack") is None
    assert refusal(call, None) == "no connection named 'chat' in acme/demo"
    assert refusal(call, "email") == (
        "connection 'chat' in acme/demo is a email connection, the hook asks for slack"
    )
    assert refusal(call, "slack", enabled=False) == "connection 'chat' in acme/demo is disabled"
