"""Component hub rules: what may be pushed, what a push does to a tag, what a hubRef names.

A tag is immutable: pushing other content to it is a conflict unless the push says ``force``
(then it is replaced and the change is an event like any push); pushing the same content again
changes nothing. ``latest`` is never pushed: it names the newest push of a component. The
built-in components belong to :data:`BUILTIN_OWNER` and are read-only.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from axonal_events.hub import PushComponent
from axonal_spec import SpecError, load
from axonal_spec.hub import parse_hub_ref

__all__ = [
    "BUILTIN_OWNER",
    "LATEST",
    "ComponentVersion",
    "HubRuleError",
    "PushOutcome",
    "ReadOnlyError",
    "Target",
    "describe",
    "digest_of",
    "push_outcome",
    "target_of",
    "unknown_ref",
    "version_to_push",
]

BUILTIN_OWNER = "axonal"
LATEST = "latest"


class HubRuleError(ValueError):
    """A push or a reference breaks a hub rule; ``field`` names where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class ReadOnlyError(HubRuleError):
    """The push would change a built-in component."""


@dataclass(frozen=True, slots=True)
class ComponentVersion:
    """A component version as stored: its content and what is read from it."""

    owner: str
    name: str
    tag: str
    content: str
    digest: str
    description: str | None
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


class PushOutcome(Enum):
    CREATED = "created"
    UNCHANGED = "unchanged"
    REPLACED = "replaced"
    CONFLICT = "conflict"


@dataclass(frozen=True, slots=True)
class Target:
    """What a ``hubRef`` names: ``owner`` ``None`` means only the built-ins, ``tag`` ``None``
    the newest version."""

    owner: str | None
    name: str
    tag: str | None


def digest_of(content: str) -> str:
    return hashlib.sha256(content.encode()).hexdigest()


def _problems(exc: SpecError) -> str:
    return "; ".join(f"{p.location or '(file)'}: {p.message}" for p in exc.problems)


def describe(owner: str, name: str, tag: str, content: str) -> ComponentVersion:
    """``content`` as a component version; :class:`HubRuleError` at ``content`` naming each
    problem when it is not a valid polyaxonfile component."""
    try:
        doc = load(content, location=f"{owner}/{name}:{tag}")
    except SpecError as exc:
        raise HubRuleError("content", _problems(exc)) from None
    if doc.kind != "component":
        found = f"`{doc.kind}`" if doc.kind else "no kind"
        raise HubRuleError("content.kind", f"a hub component needs `kind: component`, not {found}")
    return ComponentVersion(
        owner=owner,
        name=name,
        tag=tag,
        content=content,
        digest=digest_of(content),
        description=doc.description,
        inputs=tuple(io.name for io in doc.inputs or []),
        outputs=tuple(io.name for io in doc.outputs or []),
    )


def version_to_push(request: PushComponent) -> ComponentVersion:
    """The version ``request`` pushes, or why it cannot be pushed."""
    if request.owner == BUILTIN_OWNER:
        raise ReadOnlyError(
            "owner", f"`{BUILTIN_OWNER}` holds the built-in components, which are read-only"
        )
    if request.tag == LATEST:
        raise HubRuleError(
            "tag", "`latest` cannot be pushed: it names the newest push; give a tag such as v1"
        )
    return describe(request.owner, request.name, request.tag, request.content)


def push_outcome(stored_digest: str | None, digest: str, *, force: bool) -> PushOutcome:
    """What pushing ``digest`` does to a tag holding ``stored_digest`` (``None``: a new tag)."""
    if stored_digest is None:
        return PushOutcome.CREATED
    if stored_digest == digest:
        return PushOutcome.UNCHANGED
    return PushOutcome.REPLACED if force else PushOutcome.CONFLICT


def target_of(ref: str) -> Target:
    """The version ``ref`` (``[owner/]name[:tag]``) names; :class:`HubRuleError` at ``ref``."""
    try:
        parsed = parse_hub_ref(ref)
    except SpecError as exc:
        raise HubRuleError("ref", _problems(exc)) from None
    tag = None if parsed.version in (None, LATEST) else parsed.version
    return Target(owner=parsed.owner, name=parsed.name, tag=tag)


def unknown_ref(
    ref: str,
    target: Target,
    owned: Mapping[str, Sequence[str]],
    builtins: Mapping[str, Sequence[str]],
) -> str:
    """Why ``ref`` names no version, with the tags it has or the names close to it.

    ``owned`` and ``builtins`` map the owner's and the built-in components to their tags.
    """
    tags = owned.get(target.name) or builtins.get(target.name)
    if tags:
        return f"hub component `{ref}` has no tag `{target.tag}`: its tags are {', '.join(tags)}"
    known = sorted(set(owned) | set(builtins))
    close = difflib.get_close_matches(target.name, known, n=3, cutoff=0.6)
    if close:
        hint = "did you mean " + " or ".join(f"`{name}`" for name in close) + "?"
    elif target.owner is None:
        hint = "a pushed component is named owner/name[:tag]"
    else:
        hint = "push it first (`axonal hub push`)"
    owner = f"`{target.owner}` nor " if target.owner else ""
    return f"unknown hub component `{ref}`: neither {owner}the built-ins have it; {hint}"
