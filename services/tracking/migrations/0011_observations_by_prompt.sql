-- The generations that used a prompt (a prompt's page): only observations that link one.
CREATE INDEX observations_by_prompt ON observations (project_id, prompt_name, prompt_version)
    WHERE prompt_name IS NOT NULL;
