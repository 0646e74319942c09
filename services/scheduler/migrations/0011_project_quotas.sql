-- Each project's concurrent runs, as the identity service announced it (project.quotas.changed;
-- NULL: the scheduler's default_project_concurrency). Admission keeps a project within it.
CREATE TABLE project_quotas (
    owner           text        NOT NULL,
    name            text        NOT NULL,
    concurrent_runs integer,
    changed_at      timestamptz NOT NULL,
    PRIMARY KEY (owner, name)
);
CREATE INDEX runs_project_status ON runs (owner, project, status);
