-- LLM traces, observations, scores and the sessions derived from traces.
--
-- Rows are merged by id across batches (children arrive before roots, updates after creates,
-- and a trace's time moves when its root arrives), so a time-range partition key would have to
-- change on update, and PostgreSQL could not enforce one row per id (a unique key must contain
-- the partition key). The tables are therefore hash-partitioned by id: the key (project, id)
-- is enforced, upserts stay single-row, and the work spreads evenly; reads by project and time
-- use the time indexes of every partition, and retention deletes by time through them.
--
-- ``state`` keeps what clients set, with the event time of each field (the merge input); the
-- other columns are derived from it and serve the queries.

CREATE TABLE traces (
    project_id  text        NOT NULL,
    id          text        NOT NULL,
    timestamp   timestamptz NOT NULL,
    name        text,
    user_id     text,
    session_id  text,
    input       jsonb,
    output      jsonb,
    metadata    jsonb       NOT NULL DEFAULT '{}',
    tags        text[]      NOT NULL DEFAULT '{}',
    public      boolean     NOT NULL DEFAULT false,
    release     text,
    version     text,
    environment text        NOT NULL DEFAULT 'default',
    run_uuid    text,
    state       jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id)
) PARTITION BY HASH (id);
CREATE INDEX traces_by_time ON traces (project_id, timestamp DESC);
CREATE INDEX traces_by_session ON traces (project_id, session_id) WHERE session_id IS NOT NULL;
CREATE INDEX traces_by_user ON traces (project_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX traces_by_tags ON traces USING gin (tags);

CREATE TABLE observations (
    project_id            text        NOT NULL,
    id                    text        NOT NULL,
    trace_id              text        NOT NULL,
    type                  text        NOT NULL,
    parent_observation_id text,
    name                  text,
    start_time            timestamptz NOT NULL,
    end_time              timestamptz,
    completion_start_time timestamptz,
    input                 jsonb,
    output                jsonb,
    metadata              jsonb       NOT NULL DEFAULT '{}',
    level                 text        NOT NULL DEFAULT 'DEFAULT',
    status_message        text,
    version               text,
    release               text,
    environment           text        NOT NULL DEFAULT 'default',
    model                 text,
    model_parameters      jsonb       NOT NULL DEFAULT '{}',
    usage_details         jsonb       NOT NULL DEFAULT '{}',
    cost_details          jsonb       NOT NULL DEFAULT '{}',
    cost_source           text        NOT NULL DEFAULT 'none',
    total_cost            double precision NOT NULL DEFAULT 0,
    prompt_name           text,
    prompt_version        integer,
    experiment            jsonb,
    state                 jsonb       NOT NULL,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id)
) PARTITION BY HASH (id);
CREATE INDEX observations_by_trace ON observations (project_id, trace_id);
CREATE INDEX observations_by_time ON observations (project_id, start_time DESC, id DESC);

CREATE TABLE scores (
    project_id     text        NOT NULL,
    id             text        NOT NULL,
    name           text        NOT NULL,
    data_type      text        NOT NULL,
    value          double precision,
    string_value   text,
    source         text        NOT NULL,
    trace_id       text,
    observation_id text,
    session_id     text,
    dataset_run_id text,
    comment        text,
    metadata       jsonb       NOT NULL DEFAULT '{}',
    config_id      text,
    queue_id       text,
    environment    text        NOT NULL DEFAULT 'default',
    timestamp      timestamptz NOT NULL,
    state          jsonb       NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id)
) PARTITION BY HASH (id);
CREATE INDEX scores_by_time ON scores (project_id, timestamp DESC, id DESC);
CREATE INDEX scores_by_trace ON scores (project_id, trace_id) WHERE trace_id IS NOT NULL;
CREATE INDEX scores_by_session ON scores (project_id, session_id) WHERE session_id IS NOT NULL;

DO $$
BEGIN
    FOR i IN 0..7 LOOP
        EXECUTE format('CREATE TABLE traces_%s PARTITION OF traces '
                       'FOR VALUES WITH (MODULUS 8, REMAINDER %s)', i, i);
        EXECUTE format('CREATE TABLE observations_%s PARTITION OF observations '
                       'FOR VALUES WITH (MODULUS 8, REMAINDER %s)', i, i);
        EXECUTE format('CREATE TABLE scores_%s PARTITION OF scores '
                       'FOR VALUES WITH (MODULUS 8, REMAINDER %s)', i, i);
    END LOOP;
END $$;

-- A session exists once a trace names it; it starts with its earliest trace.
CREATE TABLE sessions (
    project_id  text        NOT NULL,
    id          text        NOT NULL,
    created_at  timestamptz NOT NULL,
    environment text        NOT NULL DEFAULT 'default',
    PRIMARY KEY (project_id, id)
);
CREATE INDEX sessions_by_time ON sessions (project_id, created_at DESC);
