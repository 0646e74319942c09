-- The intermediate values of each trial's pruned-on metric ({"step": value}), so a study
-- rebuilt after a restart prunes as the one before did.
ALTER TABLE trials ADD COLUMN intermediate jsonb NOT NULL DEFAULT '{}';
