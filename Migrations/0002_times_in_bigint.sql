-- Rep and fault times are a track's own timestamps in milliseconds, which may
-- count from the Unix epoch (a track exported from another system): they do not
-- fit in 32 bits. The time held in a plank stays small, but is widened alike.
ALTER TABLE reps
    ALTER COLUMN start_ms TYPE bigint,
    ALTER COLUMN bottom_ms TYPE bigint,
    ALTER COLUMN end_ms TYPE bigint;
ALTER TABLE faults
    ALTER COLUMN start_ms TYPE bigint,
    ALTER COLUMN end_ms TYPE bigint;
ALTER TABLE analyses
    ALTER COLUMN hold_ms TYPE bigint;
