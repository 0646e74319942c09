-- Artifact versions: one row per (run, name, step, bytes). Changed bytes under the same name
-- add a version (named by their sha256); the same bytes again only mark it the latest again.
ALTER TABLE artifacts DROP CONSTRAINT artifacts_key;
ALTER TABLE artifacts
    ADD CONSTRAINT artifacts_key UNIQUE NULLS NOT DISTINCT (run_uuid, name, step, sha256);
CREATE INDEX artifacts_latest ON artifacts (run_uuid, name, step, created_at DESC);
