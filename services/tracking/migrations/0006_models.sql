-- A project's own model definitions: they price its generations before the shipped ones
-- (which ship as data with the service, see axonal_traces/model_prices.json).
CREATE TABLE models (
    id              text        PRIMARY KEY,
    project_id      text        NOT NULL,
    model_name      text        NOT NULL,
    match_pattern   text        NOT NULL,
    start_date      timestamptz,
    unit            text        NOT NULL,
    tiers           jsonb       NOT NULL,
    tokenizer_model text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX models_project ON models (project_id, created_at DESC);
