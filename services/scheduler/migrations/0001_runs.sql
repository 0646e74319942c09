CREATE TABLE runs (
    uuid           text        PRIMARY KEY,
    seq            bigserial   NOT NULL,
    owner          text        NOT NULL,
    project        text        NOT NULL,
    name           text,
    op_name        text,
    kind           text        NOT NULL,
    status         text        NOT NULL,
    reason         text,
    message        text,
    queue          text        NOT NULL DEFAULT 'default',
    priority       integer     NOT NULL DEFAULT 0,
    compiled       jsonb       NOT NULL,
    content_hash   text,
    pipeline_uuid  text        REFERENCES runs (uuid) ON DELETE CASCADE,
    original_uuid  text,
    attempt        integer     NOT NULL DEFAULT 1,
    is_approved    boolean     NOT NULL DEFAULT true,
    inputs         jsonb       NOT NULL DEFAULT '{}',
    outputs        jsonb       NOT NULL DEFAULT '{}',
    cache_hit_of   text,
    early_stopping jsonb       NOT NULL DEFAULT '[]',
    created_at     timestamptz NOT NULL DEFAULT now(),
    queued_at      timestamptz,
    started_at     timestamptz,
    finished_at    timestamptz,
    deleted_at     timestamptz
);
CREATE INDEX runs_project ON runs (owner, project, created_at DESC);
CREATE INDEX runs_pipeline ON runs (pipeline_uuid);
CREATE INDEX runs_queue_status ON runs (queue, status);
CREATE INDEX runs_cache ON runs (content_hash, status);

CREATE TABLE run_statuses (
    id       bigserial   PRIMARY KEY,
    run_uuid text        NOT NULL REFERENCES runs (uuid) ON DELETE CASCADE,
    status   text        NOT NULL,
    reason   text,
    message  text,
    at       timestamptz NOT NULL
);
CREATE INDEX run_statuses_run ON run_statuses (run_uuid, id);

CREATE TABLE run_logs (
    run_uuid text        NOT NULL,
    attempt  integer     NOT NULL,
    seq      integer     NOT NULL,
    at       timestamptz NOT NULL,
    stream   text        NOT NULL,
    line     text        NOT NULL,
    PRIMARY KEY (run_uuid, attempt, seq)
);
