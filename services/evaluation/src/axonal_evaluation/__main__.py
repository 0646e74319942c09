"""``python -m axonal_evaluation`` runs the evaluation service."""

from axonal_bus import loop
from axonal_evaluation.app import build_app
from axonal_evaluation.settings import EvaluationSettings

if __name__ == "__main__":
    loop.run(build_app(EvaluationSettings()).run())
