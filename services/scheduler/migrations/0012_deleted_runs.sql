-- The uuids of runs deleted one by one, once their rows are gone: a retried or repeated
-- create under such a uuid is refused instead of bringing the run back.
CREATE TABLE deleted_runs (
    uuid       text        PRIMARY KEY,
    deleted_at timestamptz NOT NULL DEFAULT now()
);
