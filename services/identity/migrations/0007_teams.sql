-- Teams: principals of an organization granted roles together. A member holds the strongest
-- of its own grants and its teams' at each level (organization, project).
CREATE TABLE teams (
    id         text        PRIMARY KEY,
    org        text        NOT NULL,
    name       text        NOT NULL,
    role       text        CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'none')),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org, name)
);

CREATE TABLE team_members (
    team_id      text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    principal_id text NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, principal_id)
);
CREATE INDEX team_members_principal ON team_members (principal_id);

CREATE TABLE team_project_roles (
    team_id    text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'none')),
    PRIMARY KEY (team_id, project_id)
);
