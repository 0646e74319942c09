-- Iterative searches: the tuner runs that suggest each iteration's trials, one per iteration.
CREATE TABLE tuner_runs (
    sweep_uuid  text        NOT NULL REFERENCES studies (sweep_uuid) ON DELETE CASCADE,
    iteration   integer     NOT NULL,
    run_uuid    text        NOT NULL UNIQUE,
    -- running: submitted; succeeded: its suggestions became trials (none: the search ended);
    -- failed: it ended otherwise, or suggested what the search space does not hold (reason)
    state       text        NOT NULL DEFAULT 'running'
                            CHECK (state IN ('running', 'succeeded', 'failed')),
    suggested   integer,
    reason      text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    PRIMARY KEY (sweep_uuid, iteration)
);
