"""Artifact stores for Axonal: local filesystem and S3.

Open a store from a URL and use it as an async context manager::

    async with open_store("s3://artifacts/runs") as store:
        await store.put("42/model.pt", chunks)
        async for chunk in store.get("42/model.pt"):
            ...
"""

from ._base import ArtifactStore, ObjectInfo
from ._errors import (
    ArtifactNotFoundError,
    InvalidKeyError,
    InvalidStoreURLError,
    StorageBackendError,
    StorageError,
)
from ._keys import validate_key, validate_prefix
from ._local import LocalArtifactStore
from ._s3 import S3ArtifactStore
from ._url import LocalLocation, S3Location, open_store, parse_store_url

__all__ = (
    "ArtifactNotFoundError",
    "ArtifactStore",
    "InvalidKeyError",
    "InvalidStoreURLError",
    "LocalArtifactStore",
    "LocalLocation",
    "ObjectInfo",
    "S3ArtifactStore",
    "S3Location",
    "StorageBackendError",
    "StorageError",
    "open_store",
    "parse_store_url",
    "validate_key",
    "validate_prefix",
)
