"""Deliveries: every event becomes one per target that wants it (the intake), each sent,
retried and recorded by the delivery worker; listed and replayed on request."""
