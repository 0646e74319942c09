"""``python -m axonal_identity`` runs the identity service."""

import asyncio

from axonal_bus.service import build_app
from axonal_identity.app import DEFINITION

if __name__ == "__main__":
    asyncio.run(build_app(DEFINITION).run())
