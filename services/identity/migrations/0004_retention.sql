-- Days each kind of a project's data is kept ({"traces": 30, ...}; a kind left out: for ever).
ALTER TABLE projects
    ADD COLUMN retention            jsonb       NOT NULL DEFAULT '{}',
    ADD COLUMN retention_updated_at timestamptz;
