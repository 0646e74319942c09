-- Runs tracked from the SDK (non-managed: no agent executes them, the SDK ends them),
-- and what any run may report about itself: tags, progress, a description.
ALTER TABLE runs ADD COLUMN managed boolean NOT NULL DEFAULT true;
ALTER TABLE runs ADD COLUMN description text;
ALTER TABLE runs ADD COLUMN tags jsonb NOT NULL DEFAULT '[]';
ALTER TABLE runs ADD COLUMN progress double precision;
