"""A service's spec, URLs and env, and the readiness check (TCP, HTTP, bounded)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import pytest

from axonal_agent.adapters.service import allocate_ports, probe, wait_ready
from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.service import (
    ServiceSpec,
    answered,
    endpoints,
    service_env,
    service_spec,
)
from axonal_spec.service_values import fill_service_values, service_globals


def test_service_spec_reads_the_ports_and_the_http_probe():
    assert service_spec({"kind": "job"}, {}) is None
    assert service_spec({"kind": "service", "ports": [6006]}, {}) == ServiceSpec((6006,))
    probe_ = {"http": {"path": "health", "port": 9000}}
    spec = service_spec({"kind": "service", "ports": [8000, 9000]}, probe_)
    assert spec == ServiceSpec((8000, 9000), "/health", 1)
    assert service_spec({"kind": "service"}, {"http": {}}) == ServiceSpec((), "/", 0)


@pytest.mark.parametrize(
    ("run", "probe_", "message"),
    [
        ({"ports": ["http"]}, {}, "ports[0]: not a port number: 'http'"),
        ({"ports": [70000]}, {}, "ports[0]: not a port number: 70000"),
        ({"ports": "8000"}, {}, "ports: expected a list"),
        ({"ports": [8000]}, {"http": {"port": 9}}, "9 is not a port of the service [8000]"),
    ],
)
def test_bad_ports_are_invalid(run, probe_, message):
    with pytest.raises(InvalidRunError, match=message.replace("[", r"\[").replace("]", r"\]")):
        service_spec({"kind": "service", **run}, probe_)


def test_urls_and_env_of_the_allocated_ports():
    assert endpoints([6006, 7007], [41000, 41001]) == {
        "6006": "http://127.0.0.1:41000/",
        "7007": "http://127.0.0.1:41001/",
    }
    assert service_env([41000, 41001]) == {
        "AXONAL_SERVICE_PORT": "41000",
        "AXONAL_SERVICE_PORTS": "41000,41001",
        "AXONAL_SERVICE_URL": "http://127.0.0.1:41000/",
        "AXONAL_SERVICE_BASE_URL": "/",
    }
    assert service_env([]) == {}


def test_placeholders_are_filled_in_every_string():
    values = service_globals([6006, 7007])
    args = [f"--port={values['ports'][1]}", values["base_url"], {"x": values["ports"][0]}, 3]
    assert fill_service_values(args, [41000, 41001], "/") == [
        "--port=41001",
        "/",
        {"x": "41000"},
        3,
    ]


@pytest.mark.parametrize(
    ("line", "ready"),
    [
        (b"HTTP/1.0 200 OK\r\n", True),
        (b"HTTP/1.1 302 Found\r\n", True),
        (b"HTTP/1.1 404 Not Found\r\n", False),
        (b"HTTP/1.1 503 Service Unavailable\r\n", False),
        (b"SSH-2.0-OpenSSH\r\n", False),
        (b"", False),
    ],
)
def test_a_status_line_is_ready_when_2xx_or_3xx(line, ready):
    assert answered(line) is ready


def test_allocated_ports_are_free_distinct_and_not_held():
    held = set(allocate_ports(3, set()))
    ports = allocate_ports(3, held)
    assert len(set(ports)) == 3
    assert not held & set(ports)
    for port in ports:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


async def _server(status: bytes) -> AsyncIterator[int]:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


async def test_probe_connects_or_gets_the_path():
    [free] = allocate_ports(1, set())
    assert not await probe(free, None)
    async for port in _server(b"200 OK"):
        assert await probe(port, None)
        assert await probe(port, "/health")
    async for port in _server(b"500 Oops"):
        assert await probe(port, None)  # it accepts connections...
        assert not await probe(port, "/health")  # ...but does not answer the path well


async def test_wait_ready_until_it_passes_the_process_ends_or_the_bound():
    answers = iter([False, False, True])

    async def check() -> bool:
        return next(answers)

    assert await wait_ready(check, lambda: True, timeout=5, interval=0.01)

    async def never() -> bool:
        return False

    alive = iter([True, True, False])
    assert not await wait_ready(never, lambda: next(alive), timeout=5, interval=0.01)
    with pytest.raises(TimeoutError):
        await wait_ready(never, lambda: True, timeout=0.2, interval=0.01)
