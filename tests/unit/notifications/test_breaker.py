"""The circuit breaker of one URL: closed, open for a cool-down, one probe, closed again."""

from datetime import UTC, datetime, timedelta

from axonal_notifications.domain.breaker import Circuit, CircuitState

NOW = datetime(2026, 1, 1, tzinfo=UTC)
COOLDOWN = timedelta(seconds=60)


def test_trips_after_threshold_failures_in_a_row():
    circuit = Circuit()
    for _ in range(2):
        circuit = circuit.failed(NOW, 3, COOLDOWN)
        assert circuit.state(NOW, 3) is CircuitState.CLOSED
        assert circuit.open_until is None
    circuit = circuit.failed(NOW, 3, COOLDOWN)
    assert circuit.state(NOW, 3) is CircuitState.OPEN
    assert circuit.open_until == NOW + COOLDOWN


def test_a_success_resets_the_count():
    circuit = Circuit().failed(NOW, 3, COOLDOWN).failed(NOW, 3, COOLDOWN).succeeded()
    assert circuit == Circuit()
    assert circuit.failed(NOW, 3, COOLDOWN).state(NOW, 3) is CircuitState.CLOSED


def test_half_open_after_the_cooldown_lets_one_probe_through():
    tripped = Circuit(3, NOW + COOLDOWN)
    later = NOW + COOLDOWN
    assert tripped.state(later, 3) is CircuitState.HALF_OPEN
    probing = tripped.probing(later, timedelta(seconds=10))
    assert probing.state(later, 3) is CircuitState.OPEN  # no second probe meanwhile
    assert probing.state(later + timedelta(seconds=10), 3) is CircuitState.HALF_OPEN


def test_a_failed_probe_opens_again_a_good_one_closes():
    probing = Circuit(3, NOW + COOLDOWN).probing(NOW + COOLDOWN, timedelta(seconds=10))
    again = probing.failed(NOW + COOLDOWN, 3, COOLDOWN)
    assert again.failures == 4
    assert again.state(NOW + COOLDOWN, 3) is CircuitState.OPEN
    assert again.open_until == NOW + 2 * COOLDOWN
    assert probing.succeeded().state(NOW, 3) is CircuitState.CLOSED
