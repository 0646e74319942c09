-- Alert rules that watch for NaN or infinite values (``is_nan``, ``is_inf``) have no threshold.
ALTER TABLE alert_rules ALTER COLUMN threshold DROP NOT NULL;
