"""``python -m axonal_optimization`` runs the optimization service."""

from axonal_bus import loop
from axonal_optimization.app import build_app
from axonal_optimization.settings import OptimizationSettings

if __name__ == "__main__":
    loop.run(build_app(OptimizationSettings()).run())
