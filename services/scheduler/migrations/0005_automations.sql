-- Automation rules of a project and every time one fired (see domain/automations.py).
CREATE TABLE automations (
    id         text        PRIMARY KEY,
    project    text        NOT NULL,
    name       text        NOT NULL,
    spec       jsonb       NOT NULL,
    enabled    boolean     NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project, name)
);
CREATE INDEX automations_enabled ON automations (project) WHERE enabled;

-- One row per (rule, event): a redelivered event finds its firing and does nothing again.
CREATE TABLE automation_firings (
    automation_id text        NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
    event_id      text        NOT NULL,
    event_type    text        NOT NULL,
    at            timestamptz NOT NULL DEFAULT now(),
    outcome       text        NOT NULL,
    run_uuid      text,
    detail        text,
    PRIMARY KEY (automation_id, event_id)
);
CREATE INDEX automation_firings_recent ON automation_firings (automation_id, at DESC);
CREATE INDEX automation_firings_run ON automation_firings (automation_id, run_uuid);
