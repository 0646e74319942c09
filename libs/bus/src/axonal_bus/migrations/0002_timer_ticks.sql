-- When each of the service's periodic timers last fired, in any replica (axonal_bus.ticks).
CREATE TABLE timer_ticks (
    name     text        PRIMARY KEY,
    fired_at timestamptz NOT NULL
);
