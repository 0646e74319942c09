"""Bus settings: the servers of ``AXONAL_NATS_URL``, and what a log may show of them."""

from axonal_bus.settings import BusSettings


def test_a_password_in_the_nats_url_is_never_shown():
    shown = BusSettings(nats_url="nats://api:s3cr%2Ft@127.0.0.1:4222").nats_url_shown
    assert shown == "nats://api:***@127.0.0.1:4222"
    assert "s3cr" not in shown
    assert BusSettings(nats_url="nats://127.0.0.1:4222").nats_url_shown == "nats://127.0.0.1:4222"


def test_a_cluster_is_a_comma_separated_list_of_its_nodes():
    url = "nats://api:pw@127.0.0.1:4222, nats://api:pw@127.0.0.1:4223,nats://127.0.0.1:4224,"
    settings = BusSettings(nats_url=url)
    assert settings.nats_servers == [
        "nats://api:pw@127.0.0.1:4222",
        "nats://api:pw@127.0.0.1:4223",
        "nats://127.0.0.1:4224",
    ]
    assert settings.nats_url_shown == (
        "nats://api:***@127.0.0.1:4222,nats://api:***@127.0.0.1:4223,nats://127.0.0.1:4224"
    )
    assert BusSettings(nats_url="nats://127.0.0.1:4222").nats_servers == ["nats://127.0.0.1:4222"]
