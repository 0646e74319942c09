"""Where the built web UI is by default: ``services/web/dist`` of the source tree.

The workspace's packages are installed editable, so this file is still at
``services/api/src/axonal_api/`` and the UI's build output (``make web``) is beside the api's
folder. An installed copy elsewhere points ``AXONAL_API_WEB_DIR`` at its own build.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["source_web_dist"]


def source_web_dist() -> Path:
    """``services/web/dist`` next to this package's ``services/api``, built or not."""
    return Path(__file__).resolve().parents[3] / "web" / "dist"
