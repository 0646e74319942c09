-- Score configs: the schema of a score name. Archived, never deleted.
CREATE TABLE score_configs (
    id          text        PRIMARY KEY,
    project_id  text        NOT NULL,
    name        text        NOT NULL,
    data_type   text        NOT NULL CHECK (data_type IN ('NUMERIC', 'BOOLEAN', 'CATEGORICAL', 'TEXT')),
    is_archived boolean     NOT NULL DEFAULT false,
    min_value   double precision,
    max_value   double precision,
    categories  jsonb,      -- [{value, label}] of a CATEGORICAL or BOOLEAN config
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX score_configs_project ON score_configs (project_id, created_at DESC);
