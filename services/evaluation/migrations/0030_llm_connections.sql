-- LLM connections: one per provider name in a project; the secret and the extra header values
-- are stored encrypted (Fernet, the service's secret key), never returned.
CREATE TABLE llm_connections (
    id                  text        PRIMARY KEY,
    project_id          text        NOT NULL,
    provider            text        NOT NULL,
    adapter             text        NOT NULL CHECK (adapter IN ('openai', 'anthropic')),
    secret_encrypted    text        NOT NULL,
    display_secret_key  text        NOT NULL,
    base_url            text,
    custom_models       text[]      NOT NULL DEFAULT '{}',
    with_default_models boolean     NOT NULL DEFAULT true,
    headers_encrypted   text,
    extra_header_keys   text[]      NOT NULL DEFAULT '{}',
    config              jsonb,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, provider)
);
