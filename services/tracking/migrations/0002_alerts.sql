-- Alert rules per project, and where each rule stands for each run (see domain/alerts.py).
CREATE TABLE alert_rules (
    id          text             PRIMARY KEY,
    project     text             NOT NULL,
    metric      text             NOT NULL,
    comparison  text             NOT NULL,
    threshold   double precision NOT NULL,
    for_points  integer          NOT NULL DEFAULT 1,
    hysteresis  double precision NOT NULL DEFAULT 0,
    created_at  timestamptz      NOT NULL DEFAULT now()
);
CREATE INDEX alert_rules_project ON alert_rules (project, metric);

CREATE TABLE alert_states (
    rule_id   text    NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
    run_uuid  text    NOT NULL,
    streak    integer NOT NULL,
    firing    boolean NOT NULL,
    last_step bigint  NOT NULL,
    PRIMARY KEY (rule_id, run_uuid)
);
