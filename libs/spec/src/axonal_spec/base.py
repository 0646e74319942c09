"""The base of every polyaxonfile model: camelCase on the wire, unknown keys rejected."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = ["SpecModel"]


class SpecModel(BaseModel):
    """Keys are accepted in camelCase (as written in files) or snake_case (Python names).

    Unknown keys are an error that names the key. Dumps use camelCase and drop unset values
    (``model_dump(by_alias=True, exclude_none=True)``) so a round trip reproduces the file.
    """

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        validate_default=False,
        use_enum_values=True,
    )

    def to_dict(self) -> dict[str, object]:
        """The document form: camelCase keys, unset values left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)
