import pytest

from axonal_events import Retention, StreamKind, Subjects

S = Subjects()


def test_builders():
    assert S.event("run.succeeded") == "axonal.evt.run.succeeded"
    assert S.event("run.*") == "axonal.evt.run.*"
    assert S.event("run.>") == "axonal.evt.run.>"
    assert S.events() == "axonal.evt.>"
    assert S.events("run") == "axonal.evt.run.>"
    assert S.command("scheduler", "submit") == "axonal.cmd.scheduler.submit"
    assert S.rpc("identity", "ping") == "axonal.rpc.identity.ping"
    assert S.ingest("metrics") == "axonal.ingest.metrics"
    assert S.external("github", "push") == "axonal.ext.github.push"
    assert S.dlq("identity-audit") == "axonal.dlq.identity-audit"
    assert Subjects("t1").event("run.done") == "t1.evt.run.done"


@pytest.mark.parametrize(
    "call",
    [
        lambda: S.event("run"),
        lambda: S.event("run.a b"),
        lambda: S.event("run.>.x"),
        lambda: S.rpc("iden.tity", "ping"),
        lambda: S.command("scheduler", "*"),
        lambda: Subjects("a.b"),
    ],
)
def test_invalid_tokens_are_rejected(call):
    with pytest.raises(ValueError, match="must"):
        call()


def test_streams_cover_every_subject_family_without_overlap():
    streams = {spec.kind: spec for spec in Subjects("ns").streams()}
    assert set(streams) == set(StreamKind)
    assert streams[StreamKind.EVENTS].subjects == ("ns.evt.>", "ns.ext.>")
    assert streams[StreamKind.COMMANDS].retention is Retention.WORK_QUEUE
    assert streams[StreamKind.INGEST].retention is Retention.WORK_QUEUE
    assert streams[StreamKind.EVENTS].retention is Retention.LIMITS
    assert streams[StreamKind.EVENTS].name == "NS_EVENTS"
    all_subjects = [s for spec in streams.values() for s in spec.subjects]
    assert len(all_subjects) == len(set(all_subjects))
    assert all(
        s.startswith("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.NS_")
        for s in streams[StreamKind.ADVISORIES].subjects
    )
