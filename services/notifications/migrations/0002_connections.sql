-- Connections (named notifier targets), alert routes to them and their de-duplication.
-- A delivery's target is now a webhook subscription or a connection: `targets` is the one
-- view the worker reads, and deleting either deletes its deliveries.
CREATE TABLE connections (
    id              text        PRIMARY KEY,
    project         text        NOT NULL,
    name            text        NOT NULL,
    kind            text        NOT NULL,
    url             text        NOT NULL,  -- where it goes, also its circuit breaker's key
    secret          text        NOT NULL DEFAULT '',  -- signing secret of a webhook kind
    settings        jsonb       NOT NULL DEFAULT '{}',  -- routing key, SMTP settings
    description     text        NOT NULL DEFAULT '',
    enabled         boolean     NOT NULL DEFAULT true,
    disabled_reason text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project, name)
);

ALTER TABLE deliveries DROP CONSTRAINT deliveries_webhook_id_fkey;
ALTER TABLE deliveries RENAME COLUMN webhook_id TO target_id;
ALTER TABLE delivery_attempts RENAME COLUMN webhook_id TO target_id;

CREATE VIEW targets AS
    SELECT id, 'webhook' AS kind, url, secret, '{}'::jsonb AS settings, enabled FROM webhooks
    UNION ALL
    SELECT id, kind, url, secret, settings, enabled FROM connections;

CREATE FUNCTION delete_target_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('DELETE FROM %I.deliveries WHERE target_id = $1', TG_TABLE_SCHEMA)
        USING OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER webhooks_deliveries AFTER DELETE ON webhooks
    FOR EACH ROW EXECUTE FUNCTION delete_target_deliveries();
CREATE TRIGGER connections_deliveries AFTER DELETE ON connections
    FOR EACH ROW EXECUTE FUNCTION delete_target_deliveries();

CREATE TABLE alert_routes (
    id            text        PRIMARY KEY,
    project       text        NOT NULL,
    connection_id text        NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    events        text[]      NOT NULL,
    kinds         text[]      NOT NULL DEFAULT '{}',
    statuses      text[]      NOT NULL DEFAULT '{}',
    tags          text[]      NOT NULL DEFAULT '{}',
    dedup_seconds integer     NOT NULL,
    description   text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_routes_project ON alert_routes (project);

-- The last delivered time (event time) of each alert of a route, and repeats suppressed.
CREATE TABLE alert_sends (
    route_id     text        NOT NULL REFERENCES alert_routes (id) ON DELETE CASCADE,
    key          text        NOT NULL,
    last_sent_at timestamptz,
    suppressed   bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (route_id, key)
);
