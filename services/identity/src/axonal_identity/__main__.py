"""``python -m axonal_identity`` runs the identity service."""

from axonal_bus import loop
from axonal_bus.service import build_app
from axonal_identity.app import DEFINITION

if __name__ == "__main__":
    loop.run(build_app(DEFINITION).run())
