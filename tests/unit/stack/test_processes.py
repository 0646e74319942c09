"""Recorded processes are found again by pid and start, whatever the wall clock does."""

import os
import subprocess
import sys

import psutil
import pytest

from axonal_stack.processes import find, ref_for


def test_a_recorded_process_is_found_after_the_clock_is_stepped(monkeypatch: pytest.MonkeyPatch):
    ref = ref_for(os.getpid())
    booted = psutil.boot_time()
    # NTP stepping the clock moves the boot time psutil adds to every start time.
    monkeypatch.setattr(psutil._psplatform, "boot_time", lambda: booted + 7.0)
    assert find(ref) is not None


def test_a_reused_pid_is_not_the_recorded_process():
    ref = ref_for(os.getpid())
    assert find(ref.model_copy(update={"started": ref.started - 1.0})) is None


def test_a_finished_process_is_not_found():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    ref = ref_for(child.pid)
    child.wait()
    assert find(ref) is None
