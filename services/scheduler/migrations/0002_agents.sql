-- Agents seen through their heartbeats, and which agent reported on a run.
CREATE TABLE agents (
    name             text        PRIMARY KEY,
    queues           jsonb       NOT NULL DEFAULT '[]',
    interval_seconds double precision NOT NULL,
    last_seen        timestamptz NOT NULL,
    lost_at          timestamptz
);

ALTER TABLE runs ADD COLUMN agent text;
CREATE INDEX runs_agent ON runs (agent) WHERE agent IS NOT NULL;
