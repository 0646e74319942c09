"""S3 fixtures: a real moto server in its own process, and a fresh bucket per test.

Set ``AXONAL_S3_ENDPOINT_URL`` (with ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``) to
run the tests against an existing S3-compatible server such as MinIO instead.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio
from aiobotocore.session import get_session

if TYPE_CHECKING:
    from aiobotocore.session import ClientCreatorContext
    from types_aiobotocore_s3 import S3Client
    from types_aiobotocore_s3.type_defs import ObjectIdentifierTypeDef

__all__ = ("S3Server", "s3_bucket", "s3_server", "start_moto_server")

ENDPOINT_ENV = "AXONAL_S3_ENDPOINT_URL"
_STARTUP_TIMEOUT = 30.0

# Runs moto.server, asking Linux to SIGTERM it if pytest dies without tearing down.
_LAUNCHER = """
import ctypes, signal, sys
if sys.platform.startswith("linux"):
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
from moto.server import main
main(sys.argv[1:])
"""


@dataclass(frozen=True, slots=True)
class S3Server:
    """Where a test S3 server listens and how to sign requests to it."""

    endpoint_url: str
    access_key_id: str
    secret_access_key: str
    region: str = "us-east-1"

    def client(self) -> ClientCreatorContext[S3Client]:
        """An aiobotocore S3 client for this server (use with ``async with``)."""
        return get_session().create_client(
            "s3",
            endpoint_url=self.endpoint_url,
            region_name=self.region,
            aws_access_key_id=self.access_key_id,
            aws_secret_access_key=self.secret_access_key,
        )


@contextlib.contextmanager
def start_moto_server(log_path: Path) -> Iterator[S3Server]:
    """Run ``moto.server`` in a child process on a free 127.0.0.1 port until exit."""
    for _attempt in range(3):  # another process may grab the free port first
        port = _free_port()
        with log_path.open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-c", _LAUNCHER, "-H", "127.0.0.1", "-p", str(port)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            if _wait_until_answering(process, port):
                yield S3Server(f"http://127.0.0.1:{port}", "testing", "testing")
                return
        finally:
            _stop(process)
    tail = log_path.read_text(errors="replace")[-2000:]
    msg = f"moto server did not start (log {log_path}):\n{tail}"
    raise RuntimeError(msg)


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    """A real S3 endpoint for the whole session: ``$AXONAL_S3_ENDPOINT_URL`` or moto."""
    endpoint = os.environ.get(ENDPOINT_ENV)
    if endpoint:
        yield S3Server(
            endpoint,
            os.environ.get("AWS_ACCESS_KEY_ID", "testing"),
            os.environ.get("AWS_SECRET_ACCESS_KEY", "testing"),
            os.environ.get("AWS_DEFAULT_REGION", "us-east-1"),
        )
        return
    with start_moto_server(tmp_path_factory.mktemp("moto") / "moto.log") as server:
        yield server


@pytest_asyncio.fixture
async def s3_bucket(s3_server: S3Server) -> AsyncIterator[str]:
    """A new, uniquely named bucket; emptied and deleted after the test."""
    name = f"axonal-test-{uuid.uuid4().hex[:20]}"
    async with s3_server.client() as s3:
        await s3.create_bucket(Bucket=name)
        try:
            yield name
        finally:
            await _delete_bucket(s3, name)


async def _delete_bucket(s3: S3Client, name: str) -> None:
    uploads = await s3.list_multipart_uploads(Bucket=name)
    for upload in uploads.get("Uploads", []):
        await s3.abort_multipart_upload(Bucket=name, Key=upload["Key"], UploadId=upload["UploadId"])
    async for page in s3.get_paginator("list_objects_v2").paginate(Bucket=name):
        keys: list[ObjectIdentifierTypeDef] = [
            {"Key": item["Key"]} for item in page.get("Contents", [])
        ]
        if keys:
            await s3.delete_objects(Bucket=name, Delete={"Objects": keys, "Quiet": True})
    await s3.delete_bucket(Bucket=name)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_until_answering(process: subprocess.Popen[bytes], port: int) -> bool:
    """Poll until the server answers HTTP; False if the process exits first."""
    deadline = time.monotonic() + _STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        try:
            connection.request("GET", "/")
            connection.getresponse().read()
        except OSError:
            time.sleep(0.05)
        else:
            return True
        finally:
            connection.close()
    msg = f"moto server on port {port} did not answer within {_STARTUP_TIMEOUT}s"
    raise TimeoutError(msg)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
