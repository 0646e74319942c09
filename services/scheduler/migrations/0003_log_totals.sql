-- How many log lines each attempt produced (sent with its final report): a reader knows a
-- finished run's logs are complete once that many are stored.
CREATE TABLE log_totals (
    run_uuid text    NOT NULL,
    attempt  integer NOT NULL,
    lines    integer NOT NULL,
    PRIMARY KEY (run_uuid, attempt)
);
