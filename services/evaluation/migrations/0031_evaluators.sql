-- LLM-as-a-judge templates, online rules and their jobs.
CREATE TABLE eval_templates (
    id           text        PRIMARY KEY,
    project_id   text        NOT NULL,
    name         text        NOT NULL,
    prompt       text,
    prompt_name  text,
    prompt_label text        NOT NULL DEFAULT 'production',
    score_name   text        NOT NULL,
    description  text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name),
    CHECK ((prompt IS NULL) <> (prompt_name IS NULL))
);

CREATE TABLE eval_rules (
    id              text        PRIMARY KEY,
    project_id      text        NOT NULL,
    project         text        NOT NULL,
    name            text        NOT NULL,
    template_id     text        NOT NULL REFERENCES eval_templates (id),
    connection      text        NOT NULL, -- the provider name of an llm_connections row
    model           text        NOT NULL,
    target          text        NOT NULL CHECK (target IN ('trace', 'observation')),
    filter          jsonb       NOT NULL DEFAULT '{}',
    mapping         jsonb       NOT NULL DEFAULT '{}',
    sampling        double precision NOT NULL CHECK (sampling BETWEEN 0 AND 1),
    delay_seconds   double precision NOT NULL DEFAULT 0,
    max_concurrency integer     NOT NULL DEFAULT 8,
    max_per_minute  integer,
    active          boolean     NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name)
);
CREATE INDEX eval_rules_active ON eval_rules (project_id) WHERE active;

-- One job per (rule, target), ever: the unique key is what makes a redelivered event (or a
-- killed service's) harmless.
CREATE TABLE eval_jobs (
    id             text        PRIMARY KEY,
    project_id     text        NOT NULL,
    rule_id        text        NOT NULL REFERENCES eval_rules (id) ON DELETE CASCADE,
    target_key     text        NOT NULL,
    trace_id       text        NOT NULL,
    observation_id text,
    state          text        NOT NULL DEFAULT 'pending'
                               CHECK (state IN ('pending', 'running', 'succeeded', 'failed')),
    reason         text,
    answer         jsonb,
    score_id       text,
    score_value    double precision,
    attempts       integer     NOT NULL DEFAULT 0,
    due_at         timestamptz NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (rule_id, target_key)
);
CREATE INDEX eval_jobs_by_rule ON eval_jobs (project_id, rule_id, state, created_at DESC);
