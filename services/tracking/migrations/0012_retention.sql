-- Each project's retention, as the identity service announced it (project.retention.changed):
-- days each kind of data is kept ({"traces": 30, ...}; a kind left out: for ever).
CREATE TABLE project_retention (
    project_id text        PRIMARY KEY,
    owner      text        NOT NULL,
    name       text        NOT NULL,
    retention  jsonb       NOT NULL,
    changed_at timestamptz NOT NULL
);

-- Retention and deletion find a project's runs and its artifacts by age (metric points are
-- found through their runs: no index on their time slows ingestion).
CREATE INDEX artifacts_by_age ON artifacts (project, created_at);
CREATE INDEX runs_by_project ON runs (project);
