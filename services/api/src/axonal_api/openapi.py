"""``python -m axonal_api.openapi`` prints the OpenAPI document (``docs/openapi.json``)."""

from __future__ import annotations

import json
from typing import Any

from axonal_api.app import build_app
from axonal_api.settings import ApiSettings

__all__ = ["openapi_document", "render"]


def openapi_document() -> dict[str, Any]:
    app = build_app(ApiSettings(api_token=None), connect=False)
    return app.openapi()


def render() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(render(), end="")
