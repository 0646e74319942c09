-- A run whose params read another run (ref: runs.<uuid>) that is not done yet waits for it.
CREATE TABLE run_waits (
    target text NOT NULL,
    waiter text NOT NULL REFERENCES runs (uuid) ON DELETE CASCADE,
    PRIMARY KEY (target, waiter)
);
