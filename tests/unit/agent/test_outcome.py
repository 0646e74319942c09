"""The final verdict of an attempt."""

from axonal_agent.domain.outcome import verdict


def test_exit_zero_succeeds():
    v = verdict(0, stopped=False, timed_out=False, timeout=None, last_lines=["ok"])
    assert (v.status, v.reason, v.exit_code) == ("succeeded", None, 0)


def test_nonzero_fails_with_the_last_twenty_lines():
    lines = [f"l{i}" for i in range(30)]
    v = verdict(3, stopped=False, timed_out=False, timeout=None, last_lines=lines)
    assert (v.status, v.reason, v.exit_code) == ("failed", "ExitCode", 3)
    assert v.message == "\n".join(lines[10:])


def test_stop_wins_over_timeout_and_timeout_over_exit_code():
    assert (
        verdict(-15, stopped=True, timed_out=False, timeout=None, last_lines=[]).status == "stopped"
    )
    timed = verdict(-15, stopped=False, timed_out=True, timeout=2.0, last_lines=[])
    assert (timed.status, timed.reason) == ("failed", "Timeout")
    killed = verdict(-9, stopped=False, timed_out=False, timeout=None, last_lines=[])
    assert killed.reason == "Killed"
