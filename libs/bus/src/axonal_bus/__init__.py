"""Reliable messaging on NATS JetStream: provisioning, consumers, outbox, inbox, DLQ, RPC."""

from axonal_bus.broker import connect_nats, create_broker, jetstream
from axonal_bus.consumer import ConsumerSpec, subscribe, subscribe_events
from axonal_bus.errors import (
    AxonalError,
    NoRespondersError,
    Permanent,
    RemoteError,
    Retryable,
    RpcError,
    RpcTimeoutError,
)
from axonal_bus.retry import RetryPolicy
from axonal_bus.settings import BusSettings

__all__ = (
    "AxonalError",
    "BusSettings",
    "ConsumerSpec",
    "NoRespondersError",
    "Permanent",
    "RemoteError",
    "RetryPolicy",
    "Retryable",
    "RpcError",
    "RpcTimeoutError",
    "connect_nats",
    "create_broker",
    "jetstream",
    "subscribe",
    "subscribe_events",
)
