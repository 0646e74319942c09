-- One row per run attempt this agent took: what it runs, where, and how it ended.
CREATE TABLE executions (
    run_uuid    text        NOT NULL,
    attempt     integer     NOT NULL,
    agent       text        NOT NULL,
    queue       text        NOT NULL,
    pid         integer,
    folder      text        NOT NULL,
    status      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    started_at  timestamptz,
    finished_at timestamptz,
    PRIMARY KEY (run_uuid, attempt)
);
CREATE INDEX executions_active ON executions (agent) WHERE finished_at IS NULL;
