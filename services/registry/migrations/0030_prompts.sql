-- Prompts: one row per version of a name; labels point at one version of a name each.
CREATE TABLE prompts (
    id             uuid        PRIMARY KEY,
    project_id     text        NOT NULL,
    name           text        NOT NULL,
    version        integer     NOT NULL CHECK (version > 0),
    type           text        NOT NULL CHECK (type IN ('text', 'chat')),
    prompt         jsonb       NOT NULL,
    config         jsonb       NOT NULL DEFAULT '{}',
    tags           text[]      NOT NULL DEFAULT '{}',
    commit_message text,
    created_by     text,
    embeds         boolean     NOT NULL, -- holds an @@@langfusePrompt reference to resolve
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, name, version)
);
CREATE INDEX prompts_updated ON prompts (project_id, updated_at);
CREATE INDEX prompts_embedding ON prompts (project_id) WHERE embeds;

-- The primary key is the rule: a label is on at most one version of a prompt.
CREATE TABLE prompt_labels (
    project_id text    NOT NULL,
    name       text    NOT NULL,
    label      text    NOT NULL,
    version    integer NOT NULL,
    PRIMARY KEY (project_id, name, label),
    FOREIGN KEY (project_id, name, version)
        REFERENCES prompts (project_id, name, version) ON DELETE CASCADE
);
CREATE INDEX prompt_labels_version ON prompt_labels (project_id, name, version);

-- Labels only project admins may set or remove; enforced with governance.
CREATE TABLE prompt_protected_labels (
    project_id text NOT NULL,
    label      text NOT NULL,
    PRIMARY KEY (project_id, label)
);
