"""Each kind's body from the events notifications are about, field by field."""

from datetime import UTC, datetime

from axonal_events import (
    Comparison,
    HookRequested,
    MetricCrossed,
    ProjectCreated,
    RunDone,
    RunStatus,
    new_event,
)
from axonal_notifications.domain.notifiers import (
    Severity,
    discord,
    email,
    http_body,
    mattermost,
    notice,
    pagerduty,
    slack,
    teams,
)
from axonal_testing.factories import run_event

RUN = "0123456789abcdef0123456789abcdef"
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def failed_hook(**extra):
    fields = {
        "run_uuid": RUN, "project": "acme/demo", "hub_ref": "slack", "trigger": "failed",
        "status": "failed", "connection": "chat", "name": "train", "kind": "job",
        "reason": "OOMKilled", "message": "out of memory", "outputs": {"loss": 0.3},
    }  # fmt: skip
    data = HookRequested(**(fields | extra))
    return new_event(data, source="/t", project="acme/demo", time=AT)


def crossed(step=12):
    data = MetricCrossed(
        run_uuid=RUN, project="acme/demo", metric="loss", value=7.25, step=step, rule_id="r1",
        comparison=Comparison.GT, threshold=5,
    )  # fmt: skip
    return new_event(data, source="/t", project="acme/demo", time=AT)


def test_a_failed_hook_reads_as_one_sentence_with_facts():
    told = notice(failed_hook())
    assert told.title == f"run train ({RUN}) in acme/demo failed: OOMKilled - out of memory"
    assert told.severity is Severity.ERROR
    facts = dict(told.facts)
    assert facts["Project"] == "acme/demo"
    assert facts["Run"] == f"train ({RUN})"
    assert (facts["Status"], facts["Kind"], facts["Reason"]) == ("failed", "job", "OOMKilled")
    assert (facts["Hook"], facts["Trigger"]) == ("slack", "failed")
    assert facts["Outputs"] == '{"loss": 0.3}'
    assert "Inputs" not in facts
    assert told.key == f"hook.requested:{RUN}"


def test_run_events_and_metric_crossings():
    done = RunDone(run_uuid=RUN, project="acme/demo", status=RunStatus.SUCCEEDED, finished_at=AT)
    told = notice(new_event(done, source="/t", project="acme/demo"))
    assert told.title == f"run {RUN} in acme/demo succeeded"
    assert told.severity is Severity.INFO
    upstream = notice(run_event(RunStatus.UPSTREAM_FAILED, run_uuid=RUN, name="eval"))
    assert upstream.title == f"run eval ({RUN}) in acme/demo upstream failed"
    assert notice(run_event(RunStatus.STOPPED)).severity is Severity.WARNING
    metric = notice(crossed())
    assert metric.title == f"metric loss crossed 5 (gt) on run {RUN} in acme/demo at step 12: 7.25"
    assert metric.severity is Severity.WARNING
    assert metric.key == f"metric.crossed:{RUN}:r1"
    assert "at step" not in notice(crossed(step=None)).title
    other = notice(new_event(ProjectCreated(project_id="p1", owner="acme", name="x"), source="/t"))
    assert other.title.startswith("project.created")


def test_a_nan_alert_says_the_metric_is_nan():
    data = MetricCrossed(
        run_uuid=RUN, project="acme/demo", metric="loss", value=float("nan"), step=3,
        rule_id="r2", comparison=Comparison.IS_NAN,
    )  # fmt: skip
    told = notice(new_event(data, source="/t", project="acme/demo", time=AT))
    assert told.title == f"metric loss is nan on run {RUN} in acme/demo at step 3"
    assert (dict(told.facts)["Value"], dict(told.facts)["Threshold"]) == ("nan", "is_nan")


def test_slack_message():
    doc = slack(notice(failed_hook(message="a <b> & c")))
    assert doc["text"].endswith("OOMKilled - a &lt;b&gt; &amp; c")
    [title, facts, context] = doc["blocks"]
    assert title["text"] == {"type": "mrkdwn", "text": doc["text"]}
    assert facts["fields"][0] == {"type": "mrkdwn", "text": "*Project*\nacme/demo"}
    assert len(facts["fields"]) <= 10
    assert context["elements"] == [{"type": "mrkdwn", "text": "Axonal · error"}]


def test_discord_message():
    doc = discord(notice(failed_hook()))
    assert doc["content"].startswith(f"run train ({RUN})")
    [embed] = doc["embeds"]
    assert embed["title"] == doc["content"]
    assert embed["color"] == 0xD32F2F
    assert {"name": "Status", "value": "failed", "inline": True} in embed["fields"]
    assert embed["timestamp"] == AT.isoformat()
    assert doc["allowed_mentions"] == {"parse": []}


def test_mattermost_message():
    doc = mattermost(notice(crossed()))
    assert doc["text"].startswith("metric loss crossed 5 (gt)")
    [attachment] = doc["attachments"]
    assert attachment["fallback"] == doc["text"]
    assert attachment["color"] == "#f9a825"
    assert {"short": True, "title": "Value", "value": "7.25"} in attachment["fields"]


def test_teams_adaptive_card():
    doc = teams(notice(failed_hook()))
    assert doc["type"] == "message"
    [attachment] = doc["attachments"]
    assert attachment["contentType"] == "application/vnd.microsoft.card.adaptive"
    card = attachment["content"]
    assert (card["type"], card["version"]) == ("AdaptiveCard", "1.4")
    [title, facts] = card["body"]
    assert title["text"].startswith("run train")
    assert title["color"] == "Attention"
    assert {"title": "Reason", "value": "OOMKilled"} in facts["facts"]


def test_pagerduty_event():
    doc = pagerduty(notice(crossed()), "ROUTING")
    assert doc["routing_key"] == "ROUTING"
    assert doc["event_action"] == "trigger"
    assert doc["dedup_key"] == f"axonal/acme/demo/metric.crossed:{RUN}:r1"
    payload = doc["payload"]
    assert payload["summary"].startswith("metric loss crossed 5")
    assert (payload["severity"], payload["source"]) == ("warning", "axonal/acme/demo")
    assert payload["class"] == "metric.crossed"
    assert payload["custom_details"]["Threshold"] == "gt 5"


def test_email_subject_and_body():
    subject, body = email(notice(failed_hook(message="line one\nline two")))
    assert (
        subject == f"[Axonal] run train ({RUN}) in acme/demo failed: OOMKilled - line one line two"
    )
    assert "\n" not in subject
    assert body.startswith(f"run train ({RUN}) in acme/demo failed")
    assert "\nProject: acme/demo\n" in body
    assert f"\nTime: {AT.isoformat()}\n" in body


def test_http_body_by_kind():
    assert b'"event_action":"trigger"' in http_body("pagerduty", crossed(), {"routing_key": "k"})
    assert http_body("slack", crossed(), {}).startswith(b'{"text":"metric loss')
