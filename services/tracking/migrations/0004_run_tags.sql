-- Runs keep the tags they were created with; a rule with tags watches only runs having them all.
ALTER TABLE runs ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
ALTER TABLE alert_rules ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
