-- The project (owner/name) of the run an execution belongs to: what a deleted project drops.
ALTER TABLE executions ADD COLUMN project text;
CREATE INDEX executions_project ON executions (project) WHERE project IS NOT NULL;
