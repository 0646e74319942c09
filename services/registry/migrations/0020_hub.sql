-- The component hub: one row per version (owner/name:tag) of a polyaxonfile component.
-- Built-in components are seeded at start-up under owner `axonal` with builtin = true.
CREATE TABLE hub_components (
    owner       text        NOT NULL,
    name        text        NOT NULL,
    tag         text        NOT NULL,
    content     text        NOT NULL,
    digest      text        NOT NULL,
    description text,
    inputs      text[]      NOT NULL DEFAULT '{}',
    outputs     text[]      NOT NULL DEFAULT '{}',
    builtin     boolean     NOT NULL DEFAULT false,
    pushed_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, name, tag)
);
-- `latest` of a component: its newest push.
CREATE INDEX hub_components_newest ON hub_components (owner, name, pushed_at DESC);
