"""Restart backoff and port choice: pure decisions of the supervisor."""

import socket

import pytest

from axonal_stack.policy import Backoff, choose_port
from axonal_stack.ports import port_is_free
from axonal_stack.servers import can_listen, pick_port


def test_backoff_doubles_per_crash_and_is_capped():
    backoff = Backoff(initial=0.5, factor=2, maximum=5, reset_after=30)
    delays = [backoff.crashed(healthy_for=None) for _ in range(7)]
    assert delays == [0.5, 1, 2, 4, 5, 5, 5]


def test_short_healthy_runs_keep_growing_the_delay():
    backoff = Backoff(initial=1, maximum=60, reset_after=30)
    assert [backoff.crashed(healthy_for=10) for _ in range(4)] == [1, 2, 4, 8]


def test_a_long_healthy_run_resets_the_schedule():
    backoff = Backoff(initial=1, maximum=60, reset_after=30)
    for _ in range(5):
        backoff.crashed(healthy_for=None)
    assert backoff.delay() == 32
    assert backoff.crashed(healthy_for=30.0) == 1
    assert backoff.crashed(healthy_for=0.5) == 2


def test_defaults_restart_quickly_then_back_off_to_half_a_minute():
    backoff = Backoff()
    delays = [backoff.crashed(healthy_for=None) for _ in range(10)]
    assert delays[0] == 0.5
    assert delays[-1] == 30
    assert delays == sorted(delays)


@pytest.mark.parametrize(
    ("recorded", "preferred", "free", "expected"),
    [
        (40001, 4222, {40001, 4222}, 40001),  # a restart keeps the recorded port
        (40001, 4222, {4222}, 4222),  # recorded taken: the preferred one
        (None, 4222, {4222}, 4222),  # first start
        (None, 4222, set(), 55555),  # preferred taken (a second stack): any free port
        (40001, 4222, set(), 55555),
        (None, 0, {0, 4222}, 55555),  # 0: no preference
    ],
)
def test_choose_port(recorded, preferred, free, expected):
    assert choose_port(recorded, preferred, free.__contains__, lambda: 55555) == expected


def test_a_port_in_time_wait_is_reused_but_a_listening_one_is_not():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    assert not can_listen(port)
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server side closes first: its port enters TIME_WAIT
    client.close()
    listener.close()
    assert not port_is_free(port)  # a plain bind refuses it ...
    assert can_listen(port)  # ... but a server (SO_REUSEADDR) can listen there again
    assert pick_port(port, 4222, "127.0.0.1") == port
