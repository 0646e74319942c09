-- Registered models of a project; ``protected_aliases`` move only on approval.
CREATE TABLE models (
    project           text        NOT NULL,
    name              text        NOT NULL,
    description       text,
    protected_aliases text[]      NOT NULL DEFAULT '{}',
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, name)
);

-- Versions, numbered per model, made from a run's model artifact; the same bytes are never
-- two versions of one model.
CREATE TABLE model_versions (
    project     text        NOT NULL,
    model       text        NOT NULL,
    version     integer     NOT NULL,
    run_uuid    text        NOT NULL,
    artifact    text        NOT NULL,
    sha256      text        NOT NULL,
    path        text        NOT NULL,
    size        bigint      NOT NULL,
    description text,
    archived    boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, model, version),
    UNIQUE (project, model, sha256),
    FOREIGN KEY (project, model) REFERENCES models (project, name)
);

-- One holder per alias of a model.
CREATE TABLE model_aliases (
    project  text        NOT NULL,
    model    text        NOT NULL,
    alias    text        NOT NULL,
    version  integer     NOT NULL,
    moved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, model, alias),
    FOREIGN KEY (project, model, version) REFERENCES model_versions (project, model, version)
);

-- Moves of protected aliases, pending until approved.
CREATE TABLE alias_requests (
    id           text        PRIMARY KEY,
    project      text        NOT NULL,
    model        text        NOT NULL,
    alias        text        NOT NULL,
    version      integer     NOT NULL,
    requested_by text,
    approved_by  text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    approved_at  timestamptz,
    FOREIGN KEY (project, model, version) REFERENCES model_versions (project, model, version)
);
CREATE INDEX alias_requests_of_model ON alias_requests (project, model, created_at);
