-- Each attempt is announced as notification.delivered or notification.failed: the worker
-- needs the project of the delivery's target and the correlation id of the delivered event.
ALTER TABLE deliveries ADD COLUMN correlation_id text;

CREATE OR REPLACE VIEW targets AS
    SELECT id, 'webhook' AS kind, url, secret, '{}'::jsonb AS settings, enabled, project
    FROM webhooks
    UNION ALL
    SELECT id, kind, url, secret, settings, enabled, project FROM connections;
