"""The notifications service: webhook subscriptions, connections (chat, PagerDuty, email),
hooks and alert routes through them; deliveries with retries, circuit breakers, replay."""
