"""Artifact store on S3 (or any S3-compatible server) through aiobotocore."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Iterator
from typing import TYPE_CHECKING

import anyio
from aiobotocore.config import AioConfig
from aiobotocore.session import get_session
from botocore.exceptions import BotoCoreError, ClientError

from ._base import DEFAULT_CHUNK_SIZE, ArtifactStore, ObjectInfo, rechunk
from ._errors import ArtifactNotFoundError, StorageBackendError, StorageError
from ._keys import validate_key, validate_prefix

if TYPE_CHECKING:
    from types_aiobotocore_s3 import S3Client
    from types_aiobotocore_s3.type_defs import CompletedPartTypeDef, CopySourceTypeDef

__all__ = ("MIN_PART_SIZE", "S3ArtifactStore")

_log = logging.getLogger(__name__)

MIN_PART_SIZE = 5 * 1024 * 1024  # S3 rejects smaller multipart parts (except the last)
DEFAULT_PART_SIZE = 8 * 1024 * 1024
_NOT_FOUND = frozenset({"404", "NoSuchKey", "NotFound"})


class S3ArtifactStore(ArtifactStore):
    """Objects in ``bucket`` under ``prefix``; use it as an async context manager.

    Streams are uploaded with multipart upload in parts of ``part_size`` bytes (a stream
    shorter than one part is sent with a single ``PutObject``); a failed upload is aborted.
    Arguments left as ``None`` fall back to botocore's standard configuration (the
    ``AWS_*`` environment variables, shared config files, instance roles).

    Args:
        bucket: the bucket; it must exist.
        prefix: key prefix inside the bucket, treated as a directory (``runs`` -> ``runs/``).
        endpoint_url: an S3-compatible server such as MinIO; path-style addressing is used.
        region: the bucket's region.
        access_key_id: access key; with ``secret_access_key`` and ``session_token``.
        secret_access_key: secret key.
        session_token: temporary session token.
        part_size: multipart part size, at least 5 MiB (S3 allows 10 000 parts per object).
        chunk_size: size of the chunks yielded by `get`.
    """

    __slots__ = (
        "_chunk_size",
        "_client",
        "_credentials",
        "_exit_stack",
        "_part_size",
        "_prefix",
        "_region",
        "bucket",
        "endpoint_url",
    )

    def __init__(
        self,
        bucket: str,
        prefix: str = "",
        *,
        endpoint_url: str | None = None,
        region: str | None = None,
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
        session_token: str | None = None,
        part_size: int = DEFAULT_PART_SIZE,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
    ) -> None:
        if part_size < MIN_PART_SIZE:
            msg = f"part_size must be at least {MIN_PART_SIZE} bytes, got {part_size}"
            raise ValueError(msg)
        prefix = validate_prefix(prefix.strip("/"))
        self.bucket = bucket
        self._prefix = f"{prefix}/" if prefix else ""
        self._part_size = part_size
        self._chunk_size = chunk_size
        self.endpoint_url = endpoint_url
        self._region = region
        self._credentials = (access_key_id, secret_access_key, session_token)
        self._client: S3Client | None = None
        self._exit_stack: contextlib.AsyncExitStack | None = None

    def __repr__(self) -> str:
        return f"S3ArtifactStore({self.bucket!r}, {self._prefix!r})"

    async def open(self) -> None:
        """Create the aiobotocore client; `close` releases it."""
        if self._client is not None:
            return
        access_key_id, secret_access_key, session_token = self._credentials
        addressing = "path" if self.endpoint_url else "auto"
        client = get_session().create_client(
            "s3",
            endpoint_url=self.endpoint_url,
            region_name=self._region,
            aws_access_key_id=access_key_id,
            aws_secret_access_key=secret_access_key,
            aws_session_token=session_token,
            config=AioConfig(s3={"addressing_style": addressing}),
        )
        async with contextlib.AsyncExitStack() as stack:
            self._client = await stack.enter_async_context(client)
            self._exit_stack = stack.pop_all()

    async def close(self) -> None:
        stack, self._exit_stack, self._client = self._exit_stack, None, None
        if stack is not None:
            await stack.aclose()

    @property
    def client(self) -> S3Client:
        """The open aiobotocore S3 client."""
        if self._client is None:
            msg = f"{self!r} is not open; use 'async with store:' or 'await store.open()'"
            raise StorageError(msg)
        return self._client

    def _key(self, key: str) -> str:
        return self._prefix + validate_key(key)

    async def put(self, key: str, chunks: AsyncIterable[bytes]) -> ObjectInfo:
        async with contextlib.aclosing(rechunk(chunks, self._part_size)) as parts:
            with _translate(key):
                await self._upload(self._key(key), parts)
        return await self.stat(key)  # uploads do not report the size and time

    async def _upload(self, full_key: str, parts: AsyncIterator[bytes]) -> None:
        """Send a short object in one request, a longer one as a multipart upload.

        Only the part being sent is held in memory; a failed multipart upload is aborted.
        """
        client = self.client
        part = await anext(parts, b"")
        if len(part) < self._part_size:  # the whole object fits in one part
            await client.put_object(Bucket=self.bucket, Key=full_key, Body=part)
            return
        upload = await client.create_multipart_upload(Bucket=self.bucket, Key=full_key)
        upload_id = upload["UploadId"]
        completed: list[CompletedPartTypeDef] = []
        try:
            while part:
                number = len(completed) + 1
                reply = await client.upload_part(
                    Bucket=self.bucket,
                    Key=full_key,
                    UploadId=upload_id,
                    PartNumber=number,
                    Body=part,
                )
                completed.append({"ETag": reply["ETag"], "PartNumber": number})
                part = b""  # release the sent part before buffering the next one
                part = await anext(parts, b"")
            await client.complete_multipart_upload(
                Bucket=self.bucket,
                Key=full_key,
                UploadId=upload_id,
                MultipartUpload={"Parts": completed},
            )
        except BaseException:
            with anyio.CancelScope(shield=True):
                try:
                    await client.abort_multipart_upload(
                        Bucket=self.bucket, Key=full_key, UploadId=upload_id
                    )
                except (BotoCoreError, ClientError):
                    _log.warning("could not abort multipart upload %s", upload_id, exc_info=True)
            raise

    async def get(self, key: str) -> AsyncGenerator[bytes, None]:
        full_key = self._key(key)
        with _translate(key):
            reply = await self.client.get_object(Bucket=self.bucket, Key=full_key)
        async with reply["Body"] as body:
            chunks = body.iter_chunks(self._chunk_size)
            while True:
                with _translate(key):
                    chunk = await anext(chunks, b"")
                if not chunk:
                    return
                yield chunk

    async def list(self, prefix: str = "") -> AsyncGenerator[ObjectInfo, None]:
        full_prefix = self._prefix + validate_prefix(prefix)
        paginator = self.client.get_paginator("list_objects_v2")
        pages = paginator.paginate(Bucket=self.bucket, Prefix=full_prefix)
        with _translate(prefix):
            async for page in pages:
                for item in page.get("Contents", []):
                    yield ObjectInfo(
                        key=item["Key"].removeprefix(self._prefix),
                        size=item["Size"],
                        modified=item["LastModified"],
                        etag=item["ETag"].strip('"'),
                    )

    async def stat(self, key: str) -> ObjectInfo:
        with _translate(key):
            head = await self.client.head_object(Bucket=self.bucket, Key=self._key(key))
        return ObjectInfo(
            key=key,
            size=head["ContentLength"],
            modified=head["LastModified"],
            etag=head["ETag"].strip('"'),
        )

    async def delete(self, key: str) -> None:
        with _translate(key):
            await self.client.delete_object(Bucket=self.bucket, Key=self._key(key))

    async def copy(self, src: str, dst: str) -> ObjectInfo:
        """Copy server-side with ``CopyObject`` (S3 limits it to sources up to 5 GB)."""
        source: CopySourceTypeDef = {"Bucket": self.bucket, "Key": self._key(src)}
        with _translate(src):
            await self.client.copy_object(Bucket=self.bucket, Key=self._key(dst), CopySource=source)
        return await self.stat(dst)


@contextlib.contextmanager
def _translate(key: str) -> Iterator[None]:
    """Map botocore errors to storage errors."""
    try:
        yield
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        if code in _NOT_FOUND:
            raise ArtifactNotFoundError(key) from exc
        raise StorageBackendError(f"S3 error {code or 'unknown'} on {key!r}: {exc}") from exc
    except BotoCoreError as exc:
        raise StorageBackendError(f"S3 request failed on {key!r}: {exc}") from exc
