-- Runs the tracking service has heard of (from run.created events): points of other runs wait.
CREATE TABLE runs (
    uuid       text        PRIMARY KEY,
    project    text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per (run, metric, step): a redelivered or re-sent point is stored once (the first
-- value wins). Every query names its runs, so the table is hash-partitioned by run: a run's
-- points live in one partition and its primary key serves series reads and latest values.
CREATE TABLE metric_points (
    run_uuid text             NOT NULL,
    name     text             NOT NULL,
    step     bigint           NOT NULL,
    value    double precision NOT NULL,
    at       timestamptz      NOT NULL,
    PRIMARY KEY (run_uuid, name, step)
) PARTITION BY HASH (run_uuid);

DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format(
            'CREATE TABLE metric_points_%s PARTITION OF metric_points '
            'FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i);
    END LOOP;
END $$;
