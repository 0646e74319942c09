-- Webhook subscriptions, one delivery per (subscription, event), every attempt, and the
-- circuit breaker of each receiver URL (see domain/breaker.py).
CREATE TABLE webhooks (
    id              text        PRIMARY KEY,
    project         text        NOT NULL,
    url             text        NOT NULL,
    events          text[]      NOT NULL,
    kinds           text[]      NOT NULL DEFAULT '{}',
    statuses        text[]      NOT NULL DEFAULT '{}',
    tags            text[]      NOT NULL DEFAULT '{}',
    description     text        NOT NULL DEFAULT '',
    secret          text        NOT NULL,
    enabled         boolean     NOT NULL DEFAULT true,
    disabled_reason text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_project ON webhooks (project);

CREATE TABLE deliveries (
    webhook_id      text        NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        text        NOT NULL,
    event_type      text        NOT NULL,
    payload         bytea       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending',
    attempts        integer     NOT NULL DEFAULT 0,
    round_start     integer     NOT NULL DEFAULT 0,  -- attempts made before the last replay
    next_attempt_at timestamptz,
    held            boolean     NOT NULL DEFAULT false,  -- waiting for its URL's circuit
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at)
    WHERE status IN ('pending', 'failed');
CREATE INDEX deliveries_recent ON deliveries (webhook_id, created_at DESC);
CREATE INDEX deliveries_held ON deliveries (webhook_id) WHERE held;

CREATE TABLE delivery_attempts (
    webhook_id       text             NOT NULL,
    event_id         text             NOT NULL,
    number           integer          NOT NULL,
    at               timestamptz      NOT NULL,
    status_code      integer,
    latency_ms       double precision NOT NULL,
    response_excerpt text             NOT NULL DEFAULT '',
    error            text,
    PRIMARY KEY (webhook_id, event_id, number),
    FOREIGN KEY (webhook_id, event_id) REFERENCES deliveries (webhook_id, event_id)
        ON DELETE CASCADE
);

CREATE TABLE endpoints (
    url        text        PRIMARY KEY,
    failures   integer     NOT NULL DEFAULT 0,
    open_until timestamptz
);
