"""Pure notification logic: filters, retry schedule, circuit breaker, target policy,
signatures, secret masking, hooks, alert de-duplication and each notifier's payload."""
