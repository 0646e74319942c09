-- The model definition that priced a generation (its id, as the project or the shipped price
-- list names it) and the pricing tier its cost was computed with, kept as they were at ingest.
ALTER TABLE observations ADD COLUMN model_id text, ADD COLUMN pricing_tier text;
