-- Who requests act for: users (a password and personal access tokens) and service accounts
-- (tokens only). Passwords are kept as Argon2id hashes, tokens as SHA-256 (256 random bits).
CREATE TABLE principals (
    id            text        PRIMARY KEY,
    name          text        NOT NULL UNIQUE,
    kind          text        NOT NULL CHECK (kind IN ('user', 'service')),
    email         text,
    password_hash text,
    superuser     boolean     NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tokens (
    id           text        PRIMARY KEY,
    principal_id text        NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    token_hash   text        NOT NULL UNIQUE,
    hint         text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX tokens_principal ON tokens (principal_id);

-- Roles: per organization (a project's owner), and per project, which overrides it.
CREATE TABLE org_roles (
    org          text NOT NULL,
    principal_id text NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'none')),
    PRIMARY KEY (org, principal_id)
);
CREATE INDEX org_roles_principal ON org_roles (principal_id);

CREATE TABLE project_roles (
    project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    principal_id text NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'none')),
    PRIMARY KEY (project_id, principal_id)
);
CREATE INDEX project_roles_principal ON project_roles (principal_id);

-- A key acts for the principal that made it, with that principal's role in the project.
ALTER TABLE api_keys ADD COLUMN owner_id text REFERENCES principals (id) ON DELETE SET NULL;
