"""``python -m axonal_identity`` runs the identity service."""

from axonal_bus import loop
from axonal_identity.app import build_app
from axonal_identity.settings import IdentitySettings

if __name__ == "__main__":
    loop.run(build_app(IdentitySettings()).run())
