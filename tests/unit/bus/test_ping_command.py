"""``python -m axonal_bus.ping``, the health check of compose and Kubernetes, never hangs."""

import subprocess
import sys
import time

from axonal_stack.ports import free_port


def test_no_nats_fails_at_once_naming_it():
    port = free_port()  # nobody listens there
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "axonal_bus.ping", "identity", "--timeout", "1"],
        env={"AXONAL_NATS_URL": f"nats://127.0.0.1:{port}", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 1
    assert f"cannot reach NATS at nats://127.0.0.1:{port}" in result.stderr
    assert time.monotonic() - started < 10  # it used to retry for ever
