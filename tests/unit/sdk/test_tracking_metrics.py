"""``axonal.tracking`` metrics: checks, steps, batch shape, message ids and the spool file,
with a fake sender in place of NATS or HTTP."""

import json
import math
import re
import subprocess
import sys
import threading
import uuid
from fractions import Fraction

import numpy as np
import pytest

from axonal import _checks, _metrics, tracking
from axonal._metrics import Writer
from axonal._transport import Refused, destination_from_env
from axonal_events.metrics import MetricBatch
from axonal_testing.waiting import wait_for_sync

RUN = uuid.uuid4().hex


class FakeSender:
    """Records batches; fails while ``down`` is set, refuses while ``refuse`` is set."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []
        self.down = threading.Event()
        self.refuse = False
        self.attempts = 0

    def send(self, msg_id: str, body: bytes) -> None:
        self.attempts += 1
        if self.down.is_set():
            raise ConnectionRefusedError("nobody listens")
        if self.refuse:
            raise Refused("HTTP 403: not your run")
        self.sent.append((msg_id, body))

    def close(self) -> None:
        pass

    def points(self) -> list[tuple[str, int, float]]:
        return [
            (p.name, p.step, p.value)
            for _, body in self.sent
            for p in MetricBatch.model_validate_json(body).points
        ]


def wait_until(condition, timeout: float = 10.0) -> None:
    wait_for_sync(condition, timeout=timeout, interval=0.02)


@pytest.fixture
def sender():
    return FakeSender()


@pytest.fixture
def writer(sender, tmp_path, monkeypatch):
    """The process's writer replaced by one on the fake sender (the module's one seam)."""
    w = Writer(RUN, lambda: sender, tmp_path / "spool" / f"{RUN}.jsonl")
    monkeypatch.setattr(tracking, "_writer", w)
    monkeypatch.setattr(_checks, "DROPPED", set())
    yield w
    w.close(timeout=5)


@pytest.mark.parametrize(
    "values",
    [{"": 1.0}, {"-loss": 1.0}, {"lo ss": 1.0}, {"x" * 201: 1.0}],
)
def test_bad_names_are_refused_at_the_call(writer, sender, values):
    with pytest.raises(ValueError, match="bad metric name"):
        tracking.log_metrics(**values)
    with pytest.raises(ValueError, match="bad metric name"):
        tracking.log_metric(*next(iter(values.items())))
    assert tracking.flush(5)
    assert sender.sent == []


class Scalar:
    """A 0-d tensor as frameworks make them: a number through ``__float__``."""

    def __float__(self) -> float:
        return 0.25


def test_anything_float_takes_is_a_value_and_non_finite_ones_stay_so(writer, sender):
    tracking.log_metrics(
        step=0, a=math.nan, b=math.inf, c=-math.inf, d=3, e=True, f=Fraction(1, 8), g=Scalar()
    )
    assert tracking.flush(5)
    got = {name: value for name, _, value in sender.points()}
    assert math.isnan(got.pop("a"))
    assert got == {"b": math.inf, "c": -math.inf, "d": 3.0, "e": 1.0, "f": 0.125, "g": 0.25}
    assert b'"value":"NaN"' in sender.sent[0][1]


def test_numpy_scalars_and_0d_arrays_are_values(writer, sender):
    tracking.log_metrics(step=0, a=np.float32(0.5), b=np.array(2.0), c=np.float64("nan"))
    assert tracking.flush(5)
    got = {name: value for name, _, value in sender.points()}
    assert (got["a"], got["b"]) == (0.5, 2.0)
    assert math.isnan(got["c"])


def test_a_value_that_is_no_number_is_dropped_and_told_once_per_metric(writer, sender, capsys):
    tracking.log_metrics(step=0, loss=1.0, note="diverged", acc=[0.5, 0.6])
    tracking.log_metrics(step=1, loss=2.0, note="again", acc=None)
    tracking.log_metric("note", "still", step=2)
    tracking.log_metrics(step=3, note=0.5)
    assert tracking.flush(5)
    assert sorted(sender.points()) == [("loss", 0, 1.0), ("loss", 1, 2.0), ("note", 3, 0.5)]
    told = capsys.readouterr().err.splitlines()
    assert told == [
        "axonal.tracking: metric 'note': 'diverged' is not a number; it is dropped "
        "(said once per metric)",
        "axonal.tracking: metric 'acc': [0.5, 0.6] is not a number; it is dropped "
        "(said once per metric)",
    ]


@pytest.mark.parametrize("step", [-1, 2**62 + 1, 1.0, True, "3"])
def test_bad_steps_are_refused(writer, step):
    with pytest.raises(ValueError, match="step"):
        tracking.log_metrics(step=step, loss=1.0)


def test_steps_count_per_name_from_zero_and_follow_explicit_steps(writer, sender):
    tracking.log_metrics(loss=1.0, acc=0.5)
    tracking.log_metrics(loss=0.9)
    tracking.log_metric("val/loss", 3, step=10)
    tracking.log_metric("val/loss", 2)
    tracking.log_metric("step", 7.0)  # a metric called "step" goes through log_metric
    tracking.log_metrics(step=2**62, big=1.5)
    assert tracking.flush(5)
    assert sender.points() == [
        ("loss", 0, 1.0),
        ("acc", 0, 0.5),
        ("loss", 1, 0.9),
        ("val/loss", 10, 3.0),
        ("val/loss", 11, 2.0),
        ("step", 0, 7.0),
        ("big", 2**62, 1.5),
    ]


def test_batches_follow_the_wire_contract_and_number_their_message_ids(writer, sender):
    for step in range(25_000):
        tracking.log_metrics(step=step, loss=step / 10)
    assert tracking.flush(10)
    batches = [MetricBatch.model_validate_json(body) for _, body in sender.sent]
    assert all(b.run_uuid == RUN and 1 <= len(b.points) <= 10_000 for b in batches)
    assert [p.step for b in batches for p in b.points] == list(range(25_000))
    assert all(p.at.utcoffset().total_seconds() == 0 for b in batches for p in b.points)

    ids = [msg_id for msg_id, _ in sender.sent]
    match = [re.fullmatch(rf"{RUN}:([0-9a-f]+):(\d+)", msg_id) for msg_id in ids]
    assert all(match)
    assert len({m.group(1) for m in match}) == 1  # one writer id for the process
    assert [int(m.group(2)) for m in match] == list(range(1, len(ids) + 1))


def test_points_are_spooled_while_the_backend_fails_and_sent_when_it_is_back(
    writer, sender, capsys
):
    sender.down.set()
    tracking.log_metrics(step=0, loss=1.0)
    tracking.log_metrics(step=1, loss=0.5)
    assert tracking.flush(5)  # spooled counts as safe
    assert writer.spool_file.exists()
    lines = [json.loads(line) for line in writer.spool_file.read_text().splitlines()]
    spooled = [(item["msg_id"], MetricBatch.model_validate(item["batch"])) for item in lines]
    assert [p.step for _, b in spooled for p in b.points] == [0, 1]
    tracking.log_metrics(step=2, loss=0.25)
    assert tracking.flush(5)
    attempts = sender.attempts
    err = capsys.readouterr().err
    assert err.count("the backend is unreachable (nobody listens); spooling metrics to") == 1
    assert str(writer.spool_file) in err

    sender.down.clear()
    with writer._cond:  # retry now rather than after the backoff
        writer._retry_at = 0.0
        writer._cond.notify_all()
    wait_until(lambda: not writer.spool_file.exists())
    assert sender.attempts > attempts
    assert [p[1] for p in sender.points()] == [0, 1, 2]
    assert [msg_id for msg_id, _ in sender.sent][: len(spooled)] == [m for m, _ in spooled]


def test_a_later_writer_sends_what_an_earlier_one_spooled(tmp_path, capsys):
    spool = tmp_path / f"{RUN}.jsonl"
    first = FakeSender()
    first.down.set()
    dead = Writer(RUN, lambda: first, spool)
    dead.log({"loss": 1.0}, None)
    assert dead.flush(5)
    with spool.open("ab") as f:
        f.write(b'{"msg_id": "cut sho')  # a line cut short by a dying process
    dead.close(5)
    assert "1 metric points are not delivered yet" in capsys.readouterr().err

    second = FakeSender()
    later = Writer(RUN, lambda: second, spool)
    later.log({"loss": 0.5}, None)
    assert later.flush(5)
    wait_until(lambda: not spool.exists())
    later.close(5)
    assert second.points() == [("loss", 0, 1.0), ("loss", 0, 0.5)]
    ids = [m for m, _ in second.sent]
    assert ids[0].split(":")[1] != ids[1].split(":")[1]  # each process has its writer id


def test_nan_and_infinities_come_back_from_the_spool_as_they_went_in(tmp_path):
    spool = tmp_path / f"{RUN}.jsonl"
    first = FakeSender()
    first.down.set()
    dead = Writer(RUN, lambda: first, spool)
    dead.log({"a": math.nan, "b": math.inf, "c": -math.inf}, 0)
    assert dead.flush(5)
    dead.close(5)
    second = FakeSender()
    later = Writer(RUN, lambda: second, spool)
    wait_until(lambda: not spool.exists())
    later.close(5)
    [(_, body)] = second.sent
    assert [p["value"] for p in json.loads(body)["points"]] == ["NaN", "Infinity", "-Infinity"]


def test_a_refused_batch_is_dropped_with_a_warning(writer, sender, capsys):
    sender.refuse = True
    tracking.log_metrics(loss=1.0)
    assert tracking.flush(5)
    wait_until(lambda: sender.attempts == 1 and not writer._batches)
    assert "refused 1 metric points (HTTP 403: not your run)" in capsys.readouterr().err
    sender.refuse = False
    tracking.log_metrics(loss=2.0)
    assert tracking.flush(5)
    assert sender.points() == [("loss", 1, 2.0)]


def test_outside_a_run_logging_raises_not_in_run(monkeypatch):
    monkeypatch.setattr(tracking, "_writer", None)
    monkeypatch.delenv("AXONAL_RUN_UUID", raising=False)
    with pytest.raises(tracking.NotInRunError, match="AXONAL_RUN_UUID"):
        tracking.log_metrics(loss=1.0)
    monkeypatch.setenv("AXONAL_RUN_UUID", RUN)
    monkeypatch.delenv("AXONAL_NATS_URL", raising=False)
    monkeypatch.delenv("AXONAL_API_URL", raising=False)
    with pytest.raises(tracking.NotInRunError, match="AXONAL_NATS_URL"):
        tracking.log_metrics(loss=1.0)
    assert tracking._writer is None
    assert tracking.flush() is True  # nothing logged, nothing to wait for


def test_the_destination_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("AXONAL_NATS_URL", "nats://127.0.0.1:4222")
    monkeypatch.setenv("AXONAL_API_URL", "http://api")
    monkeypatch.delenv("AXONAL_NAMESPACE", raising=False)
    dest = destination_from_env(RUN)
    assert (dest.nats_url, dest.namespace) == ("nats://127.0.0.1:4222", "axonal")
    monkeypatch.delenv("AXONAL_NATS_URL")
    monkeypatch.setenv("AXONAL_PROJECT", "acme/demo")
    monkeypatch.setenv("AXONAL_API_TOKEN", "tok")
    dest = destination_from_env(RUN)
    assert (dest.api_url, dest.project, dest.token) == ("http://api", "acme/demo", "tok")
    monkeypatch.setenv("AXONAL_PROJECT", "demo")
    with pytest.raises(ValueError, match="owner/name"):
        destination_from_env(RUN)


def test_importing_tracking_loads_no_third_party_module():
    code = (
        "import sys, axonal.tracking\n"
        "heavy = {'pydantic', 'httpx', 'nats', 'asyncio', 'axonal_events'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_full_buffer_holds_logging_until_the_thread_makes_room(writer, sender, monkeypatch):
    monkeypatch.setattr(_metrics, "MAX_PENDING", 10)
    sender.down.set()
    for step in range(50):  # far more than the bound: the thread keeps making room
        tracking.log_metrics(step=step, loss=1.0)
    sender.down.clear()
    with writer._cond:
        writer._retry_at = 0.0
    wait_until(lambda: len(sender.points()) == 50)
    assert sorted(p[1] for p in sender.points()) == list(range(50))


@pytest.mark.parametrize(("own_handler", "expected"), [(False, "ours"), (True, "theirs")])
def test_sigterm_is_handled_only_when_the_program_does_not(tmp_path, own_handler, expected):
    code = (
        "import signal\n"
        "from axonal import tracking\n"
        "theirs = lambda *_: None\n"
        f"if {own_handler}: signal.signal(signal.SIGTERM, theirs)\n"
        "tracking.log_metrics(loss=1.0)\n"
        "handler = signal.getsignal(signal.SIGTERM)\n"
        "print('theirs' if handler is theirs else 'ours' if handler is tracking._on_sigterm "
        "else handler)\n"
    )
    env = {
        "AXONAL_RUN_UUID": RUN,
        "AXONAL_API_URL": "http://127.0.0.1:1",
        "AXONAL_PROJECT": "acme/demo",
        "AXONAL_TRACKING_SPOOL": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == expected, out.stderr
