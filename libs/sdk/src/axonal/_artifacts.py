"""Artifacts of the current run: files, directories, models, and typed records.

Every artifact is uploaded to the api (``AXONAL_API_URL``) with the run's token
(``AXONAL_API_TOKEN``), which stores the bytes and records the artifact for the run. An
explicit :func:`log_artifact` / :func:`log_model` raises :class:`ArtifactUploadError` when the
upload fails. A typed artifact (:func:`log_text`, :func:`log_image`, ...) that cannot reach the
backend is kept in a spool folder beside the metrics' (``$AXONAL_TRACKING_SPOOL`` or
``~/.axonal/spool``) and sent, in order, by a later call or at interpreter exit; while the
backend stays away, calls only write to the spool (retries back off up to a minute), so a
training loop is never held up for long. Uploads: :mod:`axonal._artifact_upload`; the
spool: :mod:`axonal._artifact_spool`.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from axonal import _artifact_data as encode
from axonal._artifact_data import MAX_SUMMARY_BYTES, Encoded
from axonal._artifact_spool import spool_for
from axonal._artifact_upload import ArtifactUploadError, Unreachable, current_target, put

__all__ = [
    "KINDS",
    "ArtifactUploadError",
    "Dataset",
    "datasets_read",
    "log_artifact",
    "log_confusion_matrix",
    "log_curve",
    "log_dataframe",
    "log_histogram",
    "log_image",
    "log_model",
    "log_model_scores",
    "log_text",
]

#: ``axonal_events.artifacts.ArtifactKind``.
KINDS = frozenset(
    {
        *("file", "dir", "model", "text", "image", "dataframe"),
        *("histogram", "curve", "confusion", "dataset"),
    }
)
#: ``axonal_events.artifacts.ARTIFACT_NAME_PATTERN``.
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}")
_MAX_STEP = 2**62
_CHUNK = 1024 * 1024


# explicit uploads


def log_artifact(
    path: str | os.PathLike[str],
    name: str | None = None,
    kind: str = "file",
    *,
    is_input: bool = False,
    summary: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Upload a file, or a directory (as a reproducible ``.tar.gz``); returns its record.

    ``is_input`` marks an artifact the run consumed (lineage links it to the runs that
    produced the same bytes). Raises :class:`ArtifactUploadError` when the upload fails.
    """
    source = Path(path)
    if not source.exists():
        raise FileNotFoundError(f"no such file or directory: {source}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(sorted(KINDS))}, not {kind!r}")
    name = _check_name(name or _name_from(source.name))
    extra = _check_summary(dict(summary or {}))
    target = current_target()
    folder = source.is_dir()
    if folder and kind == "file":
        kind = "dir"
    params = {"name": name, "kind": kind, "is_input": "true" if is_input else "false"}
    suffix = ".tar.gz" if folder else source.suffix
    stored = name if name.endswith(suffix) else name + suffix
    with tempfile.TemporaryFile() if folder else source.open("rb") as upload:
        if folder:
            _pack(source, upload)
        size = upload.seek(0, os.SEEK_END)
        upload.seek(0)
        try:
            return put(target, stored, _chunks(upload), params, extra, size=size, timeout=None)
        except Unreachable as exc:
            raise ArtifactUploadError(f"could not upload {source}: {exc}") from None


def log_model(
    path: str | os.PathLike[str],
    name: str | None = None,
    framework: str | None = None,
    *,
    summary: Mapping[str, Any] | None = None,
    register_as: str | None = None,
) -> dict[str, Any]:
    """Upload a model file or directory (kind ``model``); ``framework`` goes in its summary.

    ``register_as="churn"`` also makes these bytes a new version of the registered model
    ``churn`` (registered on its first version), returned under the record's
    ``model_version``.
    """
    extra = {**(summary or {}), **({"framework": framework} if framework else {})}
    record = log_artifact(path, name, "model", summary=extra)
    if register_as is not None:
        from axonal._registry import register_version  # noqa: PLC0415 - only when registering

        record["model_version"] = register_version(current_target(), register_as, record)
    return record


def log_model_scores(
    model: str,
    version: int | str,
    scores: Mapping[str, float],
    *,
    dataset: Dataset | str | None = None,
) -> dict[str, Any]:
    """Record this run's evaluation of a registered model version (a number or an alias):
    ``scores`` by name, measured on ``dataset`` (a :class:`Dataset`, uploaded as the run's
    input version, or ``name@sha256``). An alias with promotion gates takes only a version
    whose latest scores meet them. Returns the version's scores."""
    values = {name: float(value) for name, value in scores.items()}
    if isinstance(dataset, Dataset):
        record = log_artifact(dataset.path, dataset.name, "dataset", is_input=True)
        dataset = f"{record['name']}@{record['sha256']}"
    from axonal._registry import record_scores  # noqa: PLC0415 - only when recording

    return record_scores(current_target(), model, str(version), values, dataset)


@dataclass(frozen=True)
class Dataset:
    """A dataset file or folder a run reads: ``log_inputs(train=Dataset("data/train.csv"))``
    uploads it as an input artifact (kind ``dataset``), a version named by its bytes' sha256,
    and records that version as the input's value; lineage links it to the run."""

    path: str | os.PathLike[str]
    name: str | None = None


def datasets_read(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with each :class:`Dataset` uploaded and replaced by its version."""
    read = dict(params)
    for key, value in params.items():
        if isinstance(value, Dataset):
            record = log_artifact(value.path, value.name, "dataset", is_input=True)
            read[key] = {"dataset": record["name"], "sha256": record["sha256"]}
    return read


def _chunks(handle: IO[bytes]) -> Iterator[bytes]:
    while chunk := handle.read(_CHUNK):
        yield chunk


def _pack(folder: Path, into: IO[bytes]) -> None:
    """``folder`` as a tar.gz whose bytes depend only on the files' names, modes and contents."""
    import gzip  # noqa: PLC0415 - only directories need them
    import tarfile  # noqa: PLC0415

    with (
        gzip.GzipFile(fileobj=into, mode="wb", mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        for item in sorted(folder.rglob("*")):
            info = tar.gettarinfo(str(item), arcname=item.relative_to(folder).as_posix())
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if info.isfile():
                with item.open("rb") as handle:
                    tar.addfile(info, handle)
            else:
                tar.addfile(info)


def _name_from(filename: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_./:-]", "_", filename).lstrip(".:/-")
    return cleaned[:200] or "artifact"


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"bad artifact name {name!r}: 1 to 200 letters, digits or _ . / : - "
            "(not starting with . / : -)"
        )
    return name


def _check_summary(summary: dict[str, Any]) -> dict[str, Any]:
    try:
        size = len(json.dumps(summary, separators=(",", ":")))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the summary must be JSON: {exc}") from None
    if size > MAX_SUMMARY_BYTES:
        raise ValueError(f"the summary must be at most {MAX_SUMMARY_BYTES} bytes of JSON")
    return summary


def _check_step(step: object) -> int | None:
    if step is None:
        return None
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= _MAX_STEP:
        raise ValueError(f"the step must be an integer between 0 and 2**62, not {step!r}")
    return step


# typed artifacts


def log_text(name: str, text: str, step: int | None = None) -> dict[str, Any] | None:
    """Log a text (``.txt``). Like every typed artifact: its record, or None when spooled."""
    return _log_typed("text", name, step, encode.text(text))


def log_image(name: str, data: object, step: int | None = None) -> dict[str, Any] | None:
    """Log an image: a path, PNG/JPEG bytes, a PIL image or an HxW / HxWxC array."""
    return _log_typed("image", name, step, encode.image(data))


def log_dataframe(name: str, df: object, step: int | None = None) -> dict[str, Any] | None:
    """Log a table as CSV: a pandas DataFrame or a list of dicts."""
    return _log_typed("dataframe", name, step, encode.dataframe(df))


def log_histogram(
    name: str, values: object, bins: int = 30, step: int | None = None
) -> dict[str, Any] | None:
    """Log the distribution of ``values`` in ``bins`` bins (counts and edges in the summary)."""
    return _log_typed("histogram", name, step, encode.histogram(values, bins))


def log_curve(
    name: str, x: object, y: object, annotation: str | None = None, step: int | None = None
) -> dict[str, Any] | None:
    """Log a curve such as ROC or precision-recall; ``annotation`` e.g. ``"AUC=0.93"``."""
    return _log_typed("curve", name, step, encode.curve(x, y, annotation))


def log_confusion_matrix(
    name: str, x_labels: object, y_labels: object, z: object, step: int | None = None
) -> dict[str, Any] | None:
    """Log a confusion matrix: ``z[i][j]`` for row ``y_labels[i]``, column ``x_labels[j]``."""
    return _log_typed("confusion", name, step, encode.confusion(x_labels, y_labels, z))


def _log_typed(kind: str, name: str, step: int | None, encoded: Encoded) -> dict[str, Any] | None:
    name, step = _check_name(name), _check_step(step)
    target = current_target()
    path = f"{kind}/{name}" + ("" if step is None else f"-{step}") + encoded.suffix
    params = {"name": name, "kind": kind} | ({} if step is None else {"step": str(step)})
    return spool_for(target).send(target, path, params, encoded)
