-- Summaries of long series, so that a chart of 100,000 steps reads 1,000 rows, not every
-- point (metrics/rollups.py). One row per run, metric and bucket of 100 steps (``step / 100``):
-- the bucket's last step with that point's value and time, its min and max values leaving NaN
-- out (NULL when every point is NaN), its size and its NaN points.
CREATE TABLE metric_rollups (
    run_uuid text             NOT NULL,
    name     text             NOT NULL,
    bucket   bigint           NOT NULL,
    step     bigint           NOT NULL,
    value    double precision NOT NULL,
    at       timestamptz      NOT NULL,
    lo       double precision,
    hi       double precision,
    n        integer          NOT NULL,
    nans     integer          NOT NULL,
    PRIMARY KEY (run_uuid, name, bucket)
) PARTITION BY HASH (run_uuid);

DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format(
            'CREATE TABLE metric_rollups_%s PARTITION OF metric_rollups '
            'FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i);
    END LOOP;
END $$;

-- How far each series is summarised: its summaries of the buckets below ``upto`` hold.
CREATE TABLE metric_rollup_marks (
    run_uuid text   NOT NULL,
    name     text   NOT NULL,
    upto     bigint NOT NULL,
    PRIMARY KEY (run_uuid, name)
);

-- Called by ingestion once a batch, with the batch's lowest step, after its points are in: it
-- waits while a summary of the run is being written (whose snapshot may miss the batch), then,
-- in a statement of its own that sees that summary, moves back every mark of the run above
-- the batch. A summary waits in turn for batches in flight, so it sees their points.
CREATE FUNCTION metric_rollups_reopen(p_run text, p_first bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('metric_rollups'), hashtext(p_run));
    UPDATE metric_rollup_marks SET upto = p_first / 100
    WHERE run_uuid = p_run AND upto > p_first / 100;
END $$;
