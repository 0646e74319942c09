"""Model versions: numbered per model, named by their bytes, found by number or alias."""

from __future__ import annotations

from collections.abc import Mapping

from axonal_registry.domain.aliases import AliasError, check_alias

__all__ = ["DuplicateVersion", "next_version", "parse_ref"]


class DuplicateVersion(ValueError):
    """The model already has a version with these bytes."""

    def __init__(self, model: str, sha256: str, version: int) -> None:
        super().__init__(
            f"sha256: model {model!r} already has these bytes ({sha256[:12]}...) "
            f"as version {version}"
        )
        self.version = version


def next_version(model: str, by_sha256: Mapping[str, int], sha256: str) -> int:
    """The number of a new version with bytes ``sha256``; :class:`DuplicateVersion` when the
    model has them already (the same bytes are never two versions)."""
    existing = by_sha256.get(sha256)
    if existing is not None:
        raise DuplicateVersion(model, sha256, existing)
    return max(by_sha256.values(), default=0) + 1


def parse_ref(ref: str) -> int | str:
    """A version number (``3``, ``v3``) or a checked alias (``production``)."""
    digits = ref[1:] if ref[:1] in {"v", "V"} and ref[1:].isdigit() else ref
    if digits.isdigit():
        number = int(digits)
        if number < 1:
            raise AliasError(f"ref: version numbers start at 1, not {number}")
        return number
    return check_alias(ref)
