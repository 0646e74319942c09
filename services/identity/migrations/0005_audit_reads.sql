-- Reading the audit trail: by organization (the api's writes name it; else the project's
-- owner), newest first, with who did it (the api's caller, else the publishing service).
ALTER TABLE audit_log
    ADD COLUMN actor text GENERATED ALWAYS AS (COALESCE(data ->> 'actor', source)) STORED,
    ADD COLUMN org   text GENERATED ALWAYS AS (
        COALESCE(data ->> 'org', split_part(project, '/', 1))
    ) STORED;
CREATE INDEX audit_log_org_time ON audit_log (org, occurred_at DESC, event_id DESC);

-- Append-only: an entry is never changed (deleting a project still removes its entries).
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
