"""Bus settings: what a log may show of them."""

from axonal_bus.settings import BusSettings


def test_a_password_in_the_nats_url_is_never_shown():
    shown = BusSettings(nats_url="nats://api:s3cr%2Ft@127.0.0.1:4222").nats_url_shown
    assert shown == "nats://api:***@127.0.0.1:4222"
    assert "s3cr" not in shown
    assert BusSettings(nats_url="nats://127.0.0.1:4222").nats_url_shown == "nats://127.0.0.1:4222"
