-- A queue's waiting runs in admission order, read a page at a time however deep the backlog.
CREATE INDEX runs_queued_order ON runs (queue, priority DESC, (COALESCE(queued_at, created_at)), seq)
    WHERE status = 'queued';
