-- Who made a session: the operator (the command line, which may name a file on
-- the workers' machines) or a client (the API, which may not: only http(s) or
-- Spotter's own storage). The worker refuses a client's local path.
ALTER TABLE sessions
    ADD COLUMN made_by text NOT NULL DEFAULT 'operator' CHECK (made_by IN ('operator', 'client'));
