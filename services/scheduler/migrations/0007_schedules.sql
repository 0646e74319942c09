-- The durable clock of schedules: one row per schedule run, claimed by one replica per slot.
CREATE TABLE schedules (
    run_uuid      text        PRIMARY KEY REFERENCES runs (uuid) ON DELETE CASCADE,
    spec          jsonb       NOT NULL,
    next_fire_at  timestamptz,                        -- NULL: it fires no more
    fired         integer     NOT NULL DEFAULT 0,     -- runs created
    paused        boolean     NOT NULL DEFAULT false,
    last_run_uuid text,
    waiting_on    text,                               -- dependsOnPast: the run it waits for
    released      boolean     NOT NULL DEFAULT false, -- the held slot fires however late
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_due ON schedules (next_fire_at)
    WHERE NOT paused AND waiting_on IS NULL AND next_fire_at IS NOT NULL;
