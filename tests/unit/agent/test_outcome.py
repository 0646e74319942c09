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


def test_a_failure_to_allocate_under_a_memory_limit_says_so_first():
    lines = ["Traceback (most recent call last):", '  File "<string>", line 1', "MemoryError"]
    v = verdict(
        1, stopped=False, timed_out=False, timeout=None, last_lines=lines, memory_limit=2**28
    )
    assert (v.reason, v.exit_code) == ("ExitCode", 1)
    assert v.message == "\n".join(
        ["out of memory under its memory limit of 256Mi (address space)", *lines]
    )
    aborted = ["terminate called after throwing an instance of 'std::bad_alloc'"]
    v = verdict(
        -6, stopped=False, timed_out=False, timeout=None, last_lines=aborted, memory_limit=10**9
    )
    assert v.reason == "Killed"
    assert v.message is not None
    assert v.message.splitlines()[:2] == [
        "killed by signal 6",
        "out of memory under its memory limit of 1G (address space)",
    ]


def test_no_memory_hint_without_a_limit_or_a_sign_of_it():
    lines = ["MemoryError"]
    bare = verdict(1, stopped=False, timed_out=False, timeout=None, last_lines=lines)
    assert bare.message == "MemoryError"
    other = verdict(
        1, stopped=False, timed_out=False, timeout=None, last_lines=["boom"], memory_limit=2**28
    )
    assert other.message == "boom"
