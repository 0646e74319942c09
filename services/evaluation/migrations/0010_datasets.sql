-- Datasets: unique by name in a project; optional JSON Schemas their items must match.
CREATE TABLE datasets (
    id                     text        PRIMARY KEY,
    project_id             text        NOT NULL,
    name                   text        NOT NULL,
    description            text,
    metadata               jsonb,
    input_schema           jsonb,
    expected_output_schema jsonb,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name)
);

-- Dataset items, one row per version (SCD-2): a version is current from valid_from until
-- valid_to; a deletion is a last version with is_deleted. An item id is the project's.
CREATE TABLE dataset_items (
    project_id            text        NOT NULL,
    id                    text        NOT NULL,
    dataset_id            text        NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    valid_from            timestamptz NOT NULL,
    valid_to              timestamptz,
    is_deleted            boolean     NOT NULL DEFAULT false,
    status                text        NOT NULL CHECK (status IN ('ACTIVE', 'ARCHIVED')),
    input                 jsonb,
    expected_output       jsonb,
    metadata              jsonb,
    source_trace_id       text,
    source_observation_id text,
    created_at            timestamptz NOT NULL,
    PRIMARY KEY (project_id, id, valid_from),
    CHECK (valid_to IS NULL OR valid_to > valid_from)
);
CREATE UNIQUE INDEX dataset_items_current ON dataset_items (project_id, id) WHERE valid_to IS NULL;
CREATE INDEX dataset_items_dataset ON dataset_items (dataset_id, valid_from);
CREATE INDEX dataset_items_source ON dataset_items (project_id, source_trace_id)
    WHERE source_trace_id IS NOT NULL;

-- Dataset runs (experiments): the id is the one the Langfuse SDK derives from the project,
-- the dataset and the run name; an experiment without a dataset has none.
CREATE TABLE dataset_runs (
    id          text        PRIMARY KEY,
    project_id  text        NOT NULL,
    dataset_id  text        REFERENCES datasets (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    description text,
    metadata    jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dataset_runs_name ON dataset_runs (project_id, dataset_id, name)
    WHERE dataset_id IS NOT NULL;
CREATE INDEX dataset_runs_project ON dataset_runs (project_id, created_at);

-- What a run did with one dataset item: the trace (and observation) that ran it.
CREATE TABLE dataset_run_items (
    id              text        PRIMARY KEY,
    project_id      text        NOT NULL,
    run_id          text        NOT NULL REFERENCES dataset_runs (id) ON DELETE CASCADE,
    dataset_item_id text        NOT NULL,
    trace_id        text        NOT NULL,
    observation_id  text,
    dataset_version timestamptz,
    item_metadata   jsonb,
    expected_output jsonb,
    start_time      timestamptz NOT NULL,
    end_time        timestamptz,
    level           text        NOT NULL DEFAULT 'DEFAULT',
    environment     text        NOT NULL DEFAULT 'default',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (run_id, dataset_item_id, trace_id)
);
CREATE INDEX dataset_run_items_run ON dataset_run_items (run_id, created_at);
CREATE INDEX dataset_run_items_start ON dataset_run_items (project_id, start_time);
