"""Event filters: exact types and wildcards checked against the catalog, then attributes."""

import pytest
from pydantic import ValidationError

from axonal_events import RunStatus
from axonal_events.webhooks import WebhookConfig, filter_matches, matching_event_types
from axonal_notifications.domain.filters import Subscription, wants
from axonal_testing.factories import run_event


@pytest.mark.parametrize(
    ("pattern", "event_type", "expected"),
    [
        ("run.succeeded", "run.succeeded", True),
        ("run.succeeded", "run.failed", False),
        ("run.*", "run.failed", True),
        ("run.*", "metric.crossed", False),
        ("*.crossed", "metric.crossed", True),
        ("*", "metric.crossed", True),
        ("run", "run.succeeded", False),
        ("run.*.x", "run.succeeded", False),
    ],
)
def test_wildcards_match_whole_tokens(pattern, event_type, expected):
    assert filter_matches(pattern, event_type) is expected


def test_run_wildcard_covers_every_run_status_and_done():
    found = matching_event_types("run.*")
    assert {"run.succeeded", "run.failed", "run.done", "run.created"} <= set(found)
    assert "metric.crossed" not in found


def test_config_accepts_known_types_and_wildcards():
    config = WebhookConfig(url="https://example.com/h", events=["run.*", "metric.crossed"])
    assert config.events == ["metric.crossed", "run.*"]


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (["run.sucseeded"], "unknown event type 'run.sucseeded'"),
        (["nothing.*"], "event filter 'nothing.*' matches no event type"),
        ([], "at least 1 item"),
    ],
)
def test_config_refuses_filters_that_match_nothing(events, message):
    with pytest.raises(ValidationError, match=message):
        WebhookConfig(url="https://example.com/h", events=events)


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "example.com/hook", "https://user:pw@example.com/", "http://"]
)
def test_config_refuses_urls_that_are_not_plain_http(url):
    with pytest.raises(ValidationError, match="url"):
        WebhookConfig(url=url, events=["run.*"])


def test_attribute_filters_narrow_the_events():
    succeeded = run_event(RunStatus.SUCCEEDED, kind="job", tags=["nightly", "gpu"])
    failed = run_event(RunStatus.FAILED, kind="dag", tags=["nightly"])
    every = Subscription("a", "acme/demo", ("run.*",))
    jobs = Subscription("b", "acme/demo", ("run.*",), kinds=("job",))
    ok = Subscription("c", "acme/demo", ("run.*",), statuses=("succeeded",))
    gpu = Subscription("d", "acme/demo", ("run.*",), tags=("gpu", "nightly"))
    other = Subscription("e", "acme/demo", ("metric.crossed",))

    def takers(event):
        subs = (every, jobs, ok, gpu, other)
        return [s.id for s in subs if wants(s, event.event_type, event.data)]

    assert takers(succeeded) == ["a", "b", "c", "d"]
    assert takers(failed) == ["a"]
