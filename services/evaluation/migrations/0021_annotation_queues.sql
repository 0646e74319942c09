-- Annotation queues, their items (an object at most once per queue) and assignments.
CREATE TABLE annotation_queues (
    id               text        PRIMARY KEY,
    project_id       text        NOT NULL,
    name             text        NOT NULL,
    description      text,
    score_config_ids text[]      NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name)
);

CREATE TABLE annotation_queue_items (
    id           text        PRIMARY KEY,
    queue_id     text        NOT NULL REFERENCES annotation_queues (id) ON DELETE CASCADE,
    project_id   text        NOT NULL,
    object_id    text        NOT NULL,
    object_type  text        NOT NULL CHECK (object_type IN ('TRACE', 'OBSERVATION', 'SESSION')),
    status       text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'COMPLETED')),
    completed_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (queue_id, object_type, object_id)
);
CREATE INDEX annotation_queue_items_queue ON annotation_queue_items (queue_id, status, created_at);

CREATE TABLE annotation_queue_assignments (
    queue_id   text        NOT NULL REFERENCES annotation_queues (id) ON DELETE CASCADE,
    user_id    text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (queue_id, user_id)
);
