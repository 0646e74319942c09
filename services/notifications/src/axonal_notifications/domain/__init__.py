"""Pure webhook logic: filters, retry schedule, circuit breaker, target policy, signatures."""
