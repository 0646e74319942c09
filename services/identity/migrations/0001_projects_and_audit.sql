CREATE TABLE projects (
    id          text        PRIMARY KEY,
    owner       text        NOT NULL,
    name        text        NOT NULL,
    description text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (owner, name)
);

-- Every event on the bus, as it was published: the platform's audit trail.
CREATE TABLE audit_log (
    event_id    text        PRIMARY KEY,
    type        text        NOT NULL,
    source      text        NOT NULL,
    subject     text,
    project     text,
    occurred_at timestamptz NOT NULL,
    data        jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_type_time ON audit_log (type, occurred_at);
