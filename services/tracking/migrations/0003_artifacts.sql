-- Artifacts of runs: one row per (run, name, step); a re-upload replaces its row. ``project``
-- scopes lineage: runs of one project that produced or consumed the same bytes or key.
CREATE TABLE artifacts (
    run_uuid   text        NOT NULL,
    project    text        NOT NULL,
    name       text        NOT NULL,
    step       bigint,
    kind       text        NOT NULL,
    path       text        NOT NULL,
    size       bigint      NOT NULL,
    sha256     text        NOT NULL,
    is_input   boolean     NOT NULL DEFAULT false,
    summary    jsonb       NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    CONSTRAINT artifacts_key UNIQUE NULLS NOT DISTINCT (run_uuid, name, step)
);
CREATE INDEX artifacts_by_sha256 ON artifacts (project, sha256);
CREATE INDEX artifacts_by_path ON artifacts (project, path);
