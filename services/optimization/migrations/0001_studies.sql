-- Adaptive searches: one study per sweep run, its trials (one run each) and their results.
CREATE TABLE studies (
    sweep_uuid   text        PRIMARY KEY,
    owner        text        NOT NULL,
    project      text        NOT NULL,
    name         text,
    kind         text        NOT NULL,
    search_space jsonb       NOT NULL,
    -- running: suggesting; finished: every trial done and the sweep told; ended: the sweep
    -- run ended first (stopped, failed) or the search could not start
    state        text        NOT NULL DEFAULT 'running'
                             CHECK (state IN ('running', 'finished', 'ended')),
    reason       text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- A trial's number is its Optuna number (rebuilding inserts them in this order), except in a
-- hyperband search: there a trial runs a configuration (``config``, the number of the trial
-- that first ran it) at the resource of its bracket's rung.
CREATE TABLE trials (
    sweep_uuid  text             NOT NULL REFERENCES studies (sweep_uuid) ON DELETE CASCADE,
    number      integer          NOT NULL,
    run_uuid    text             NOT NULL UNIQUE,
    params      jsonb            NOT NULL,
    state       text             NOT NULL DEFAULT 'running'
                                 CHECK (state IN ('running', 'complete', 'failed', 'pruned')),
    value       double precision,
    reason      text,
    bracket     integer,
    rung        integer,
    config      integer,
    created_at  timestamptz      NOT NULL DEFAULT now(),
    finished_at timestamptz,
    PRIMARY KEY (sweep_uuid, number)
);
