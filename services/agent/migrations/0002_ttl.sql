-- termination.ttl: an attempt's folder is deleted ttl seconds after it ends.
ALTER TABLE executions
    ADD COLUMN ttl_seconds  double precision,
    ADD COLUMN delete_after timestamptz,
    ADD COLUMN cleaned_at   timestamptz;
CREATE INDEX executions_to_clean ON executions (agent, delete_after)
    WHERE delete_after IS NOT NULL AND cleaned_at IS NULL;
