"""Promotion gates: the version's latest score of each metric against the threshold."""

from datetime import UTC, datetime, timedelta

from axonal_events.model_evaluations import ModelVersionScore, PromotionGate
from axonal_registry.domain.gates import latest_scores, unmet

T0 = datetime(2026, 12, 1, tzinfo=UTC)
RUN_A, RUN_B = "a" * 32, "b" * 32


def score(name: str, value: float, minutes: int, run: str = RUN_A) -> ModelVersionScore:
    at = T0 + timedelta(minutes=minutes)
    return ModelVersionScore(
        name=name, value=value, run_uuid=run, dataset="holdout.csv@1234", recorded_at=at
    )


def test_the_newest_score_of_a_metric_counts():
    latest = latest_scores([score("auc", 0.95, 2, RUN_B), score("auc", 0.80, 1), score("f1", 1, 0)])
    assert {name: s.value for name, s in latest.items()} == {"auc": 0.95, "f1": 1}


def test_a_version_passes_when_every_gate_holds():
    gates = [PromotionGate(metric="auc", op=">=", threshold=0.9),
             PromotionGate(metric="latency_ms", op="<", threshold=50)]  # fmt: skip
    latest = latest_scores([score("auc", 0.9, 0), score("latency_ms", 12, 0)])
    assert unmet("production", 3, gates, latest) == []


def test_each_failed_gate_names_the_score_its_run_and_dataset():
    gates = [PromotionGate(metric="auc", op=">=", threshold=0.9),
             PromotionGate(metric="f1", op=">", threshold=0.5)]  # fmt: skip
    reasons = unmet("production", 3, gates, latest_scores([score("auc", 0.87, 0)]))
    assert reasons == [
        f"alias 'production' requires auc >= 0.9: version 3 scored 0.87 (run {RUN_A} on "
        "holdout.csv@1234)",
        "alias 'production' requires f1 > 0.5: version 3 has no 'f1' score (record one with "
        "an evaluation run)",
    ]


def test_bounds_are_strict_or_inclusive_as_written():
    at_limit = latest_scores([score("loss", 0.2, 0)])
    assert (
        unmet("staging", 1, [PromotionGate(metric="loss", op="<=", threshold=0.2)], at_limit) == []
    )
    assert unmet("staging", 1, [PromotionGate(metric="loss", op="<", threshold=0.2)], at_limit)
