-- A service's URLs by declared port, as its agent reports them once it answers.
ALTER TABLE runs ADD COLUMN endpoints jsonb NOT NULL DEFAULT '{}';
