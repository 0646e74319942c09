"""``python -m axonal_registry`` runs the registry service."""

from axonal_bus import loop
from axonal_registry.app import build_app
from axonal_registry.settings import RegistrySettings

if __name__ == "__main__":
    loop.run(build_app(RegistrySettings()).run())
