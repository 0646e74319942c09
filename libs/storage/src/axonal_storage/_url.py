"""Store URLs (``file:///path``, a bare path, ``s3://bucket/prefix``) and `open_store`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ._base import ArtifactStore
from ._errors import InvalidKeyError, InvalidStoreURLError
from ._keys import validate_prefix
from ._local import LocalArtifactStore
from ._s3 import S3ArtifactStore

__all__ = ("ENDPOINT_ENV", "LocalLocation", "S3Location", "open_store", "parse_store_url")

ENDPOINT_ENV = "AXONAL_S3_ENDPOINT_URL"


@dataclass(frozen=True, slots=True)
class LocalLocation:
    """A directory on the local filesystem."""

    root: Path


@dataclass(frozen=True, slots=True)
class S3Location:
    """A bucket and a key prefix without leading or trailing ``/``."""

    bucket: str
    prefix: str = ""


def parse_store_url(url: str | os.PathLike[str]) -> LocalLocation | S3Location:
    """Parse a store URL; raise `InvalidStoreURLError` if it names no supported store.

    ``s3://`` URLs are taken literally (like the AWS CLI): no percent-decoding, and ``?``
    or ``#`` are part of the prefix. ``file://`` URLs are percent-decoded (RFC 8089).
    """
    if isinstance(url, os.PathLike):
        return LocalLocation(Path(url))
    if not url:
        raise InvalidStoreURLError(url, "the URL is empty")
    scheme, sep, rest = url.partition("://")
    if not sep:
        return LocalLocation(Path(url).expanduser())
    if scheme.lower() == "s3":
        return _parse_s3(url, rest)
    if scheme.lower() == "file":
        return _parse_file(url)
    raise InvalidStoreURLError(url, f"unsupported scheme {scheme!r} (use file:// or s3://)")


def _parse_s3(url: str, rest: str) -> S3Location:
    bucket, _, prefix = rest.partition("/")
    if not bucket:
        raise InvalidStoreURLError(url, "the bucket name is missing")
    if any(char in bucket for char in ":@?#"):
        raise InvalidStoreURLError(url, f"{bucket!r} is not a bucket name")
    prefix = prefix.strip("/")
    try:
        validate_prefix(prefix)
    except InvalidKeyError as exc:
        raise InvalidStoreURLError(url, f"bad prefix: {exc.reason}") from exc
    return S3Location(bucket, prefix)


def _parse_file(url: str) -> LocalLocation:
    parts = urlsplit(url)
    if parts.netloc not in {"", "localhost"}:
        raise InvalidStoreURLError(url, f"remote host {parts.netloc!r} is not supported")
    if parts.query or parts.fragment:
        raise InvalidStoreURLError(url, "query strings and fragments are not supported")
    if not parts.path:
        raise InvalidStoreURLError(url, "the path is missing")
    return LocalLocation(Path(unquote(parts.path)))


def open_store(
    url: str | os.PathLike[str],
    *,
    endpoint_url: str | None = None,
    region: str | None = None,
    access_key_id: str | None = None,
    secret_access_key: str | None = None,
    session_token: str | None = None,
) -> ArtifactStore:
    """Build the store named by ``url``; enter it with ``async with`` before use.

    Args:
        url: ``file:///path``, a bare path, or ``s3://bucket/prefix``.
        endpoint_url: S3-compatible endpoint; defaults to ``$AXONAL_S3_ENDPOINT_URL``,
            then to botocore's own resolution (``AWS_ENDPOINT_URL_S3``, AWS).
        region: S3 region; defaults to botocore's resolution (``AWS_DEFAULT_REGION``...).
        access_key_id: S3 access key; defaults to the standard AWS credential chain.
        secret_access_key: S3 secret key.
        session_token: S3 session token.
    """
    location = parse_store_url(url)
    if isinstance(location, LocalLocation):
        return LocalArtifactStore(location.root)
    return S3ArtifactStore(
        location.bucket,
        location.prefix,
        endpoint_url=endpoint_url or os.environ.get(ENDPOINT_ENV) or None,
        region=region,
        access_key_id=access_key_id,
        secret_access_key=secret_access_key,
        session_token=session_token,
    )
