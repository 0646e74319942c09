"""Hang detection: when a service that stopped answering its pings counts as hung."""

from axonal_stack.policy import Backoff, HangWatch


def silent_pings(watch: HangWatch, start: float, every: float, count: int) -> list[bool]:
    return [watch.observe(start + every * (i + 1), "silent") for i in range(count)]


def test_silence_while_nats_is_up_counts_until_the_timeout():
    watch = HangWatch(timeout=10, since=0)
    assert silent_pings(watch, 0, 3, 4) == [False, False, False, True]  # hung at 12 s
    assert watch.silent_for(12) == 12


def test_an_answer_starts_the_count_again_healthy_or_degraded():
    watch = HangWatch(timeout=10, since=0)
    assert not watch.observe(9, "silent")
    assert not watch.observe(10, "degraded")  # PostgreSQL down: it answers, not hung
    assert not watch.observe(19, "silent")
    assert not watch.observe(20, "ok")
    assert watch.silent_for(20) == 0
    assert watch.observe(30, "silent")


def test_a_nats_outage_never_counts_as_silence():
    watch = HangWatch(timeout=10, since=0)
    assert not watch.observe(6, "silent")
    for now in (9, 12, 15, 30):  # NATS down for long: nothing can be told
        assert not watch.observe(now, "unknown")
    # NATS back: the service gets the whole timeout again to reconnect and answer
    assert not watch.observe(33, "silent")
    assert not watch.observe(39, "silent")
    assert watch.observe(40, "silent")


def test_a_pause_of_the_supervisor_itself_starts_the_count_again():
    watch = HangWatch(timeout=10, since=0, max_gap=8)
    assert not watch.observe(3, "silent")
    assert not watch.observe(60, "silent")  # the laptop slept: every service looked silent
    assert watch.silent_for(60) == 0
    assert not watch.observe(63, "silent")
    assert watch.observe(70, "silent")


def test_timeout_zero_turns_detection_off():
    watch = HangWatch(timeout=0, since=0)
    assert not any(silent_pings(watch, 0, 100, 5))


def test_servers_back_off_like_services_and_reset_after_a_long_healthy_run():
    backoff = Backoff(initial=0.2, maximum=30, reset_after=30)
    assert [backoff.crashed(healthy_for=1) for _ in range(4)] == [0.2, 0.4, 0.8, 1.6]
    assert backoff.crashed(healthy_for=None) == 3.2  # a restart that failed
    assert backoff.crashed(healthy_for=3600) == 0.2  # up for an hour, then died
