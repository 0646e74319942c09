-- Code evaluators (run as jobs), rules that send targets to an annotation queue, and what a
-- job records of an experiment's item, a code evaluator's run or a queue item.
ALTER TABLE eval_templates
    ADD COLUMN kind    text  NOT NULL DEFAULT 'llm' CHECK (kind IN ('llm', 'code')),
    ADD COLUMN code    text,
    ADD COLUMN runtime jsonb NOT NULL DEFAULT '{}',
    DROP CONSTRAINT eval_templates_check,
    ADD CONSTRAINT eval_templates_source CHECK (
        (kind = 'llm' AND (prompt IS NULL) <> (prompt_name IS NULL) AND code IS NULL)
        OR (kind = 'code' AND code IS NOT NULL AND prompt IS NULL AND prompt_name IS NULL)
    );

ALTER TABLE eval_rules
    ALTER COLUMN template_id DROP NOT NULL,
    ALTER COLUMN connection DROP NOT NULL,
    ALTER COLUMN model DROP NOT NULL,
    ADD COLUMN queue_id text REFERENCES annotation_queues (id) ON DELETE CASCADE,
    ADD CONSTRAINT eval_rules_action CHECK ((template_id IS NULL) <> (queue_id IS NULL));

ALTER TABLE eval_jobs
    ADD COLUMN dataset_item_id text,
    ADD COLUMN dataset_run_id  text,
    ADD COLUMN run_uuid        text,
    ADD COLUMN queue_item_id   text,
    ADD COLUMN environment     text;
CREATE UNIQUE INDEX eval_jobs_by_run ON eval_jobs (run_uuid) WHERE run_uuid IS NOT NULL;
