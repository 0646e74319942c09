"""Reliable messaging on NATS JetStream: provisioning, consumers, outbox, inbox, DLQ."""
