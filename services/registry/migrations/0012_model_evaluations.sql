-- Scores evaluation runs recorded on model versions: one per metric and run (a run that
-- records a metric again replaces its value).
CREATE TABLE model_version_scores (
    project     text             NOT NULL,
    model       text             NOT NULL,
    version     integer          NOT NULL,
    name        text             NOT NULL,
    run_uuid    text             NOT NULL,
    value       double precision NOT NULL,
    dataset     text,
    recorded_at timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (project, model, version, name, run_uuid),
    FOREIGN KEY (project, model, version) REFERENCES model_versions (project, model, version)
);

-- The scores an alias requires of the version it moves to.
CREATE TABLE promotion_gates (
    project   text             NOT NULL,
    model     text             NOT NULL,
    alias     text             NOT NULL,
    metric    text             NOT NULL,
    op        text             NOT NULL CHECK (op IN ('>=', '>', '<=', '<')),
    threshold double precision NOT NULL,
    PRIMARY KEY (project, model, alias, metric),
    FOREIGN KEY (project, model) REFERENCES models (project, name)
);
