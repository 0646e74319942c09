-- Transactional outbox: events written in the same transaction as the state they describe.
CREATE TABLE outbox (
    id           bigserial PRIMARY KEY,
    event_id     text        NOT NULL UNIQUE,
    subject      text        NOT NULL,
    payload      bytea       NOT NULL,
    headers      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);
CREATE INDEX outbox_pending ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL;

-- Inbox: event ids a consumer has applied, recorded in the same transaction as the effect.
CREATE TABLE inbox (
    consumer     text        NOT NULL,
    event_id     text        NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
CREATE INDEX inbox_processed_at ON inbox (processed_at);
