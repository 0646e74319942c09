"""A server whose port another server took first fails to start instead of borrowing it."""

import pytest

from axonal_stack.nats_server import NatsServer
from axonal_stack.process import ServerStartError


def test_nats_on_a_port_another_nats_holds_fails(tmp_path):
    with NatsServer(tmp_path / "first") as first:
        second = NatsServer(tmp_path / "second")
        second.port = first.port  # what a stack started at the same moment ends up with
        try:
            with pytest.raises(ServerStartError):
                second.start(timeout=10)
        finally:
            second.stop()
        assert first.process is not None
        assert first.process.poll() is None
