-- Project API keys (Langfuse-style public/secret pairs). Only a SHA-256 of the secret is kept:
-- secrets are 256-bit random, so a fast hash is enough (no password stretching needed).
CREATE TABLE api_keys (
    id          text        PRIMARY KEY,
    project_id  text        NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    public_key  text        NOT NULL UNIQUE,
    secret_hash text        NOT NULL,
    secret_hint text        NOT NULL,
    note        text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX api_keys_project ON api_keys (project_id);
