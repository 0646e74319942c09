-- Artifact versions runs read and wrote, from ``artifact.version.created``: the edges of the
-- lineage graph between dataset versions, runs and model versions.
CREATE TABLE artifact_versions (
    project    text        NOT NULL,
    run_uuid   text        NOT NULL,
    name       text        NOT NULL,
    step       bigint,
    sha256     text        NOT NULL,
    kind       text        NOT NULL,
    size       bigint      NOT NULL,
    path       text        NOT NULL,
    is_input   boolean     NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT artifact_versions_key
        UNIQUE NULLS NOT DISTINCT (run_uuid, name, step, sha256, is_input)
);
CREATE INDEX artifact_versions_by_sha256 ON artifact_versions (project, sha256);
