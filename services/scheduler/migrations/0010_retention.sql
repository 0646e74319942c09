-- Each project's retention, as the identity service announced it (project.retention.changed):
-- the scheduler applies the days of "logs" to its runs' log lines.
CREATE TABLE project_retention (
    project_id text        PRIMARY KEY,
    owner      text        NOT NULL,
    name       text        NOT NULL,
    retention  jsonb       NOT NULL,
    changed_at timestamptz NOT NULL
);
