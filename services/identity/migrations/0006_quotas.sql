-- A project's quotas ({"concurrent_runs": 4, "spans_per_second": 500, ...}; a limit left out:
-- the platform's default, set on the service enforcing it).
ALTER TABLE projects
    ADD COLUMN quotas            jsonb       NOT NULL DEFAULT '{}',
    ADD COLUMN quotas_updated_at timestamptz;
