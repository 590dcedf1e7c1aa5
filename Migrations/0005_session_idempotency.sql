-- Idempotency outlives the jobs, which are deleted 30 days after they finish:
-- the key (its SHA-256) stays with the session it made, which is kept.
ALTER TABLE sessions ADD COLUMN idempotency_key text;
UPDATE sessions AS s SET idempotency_key = j.idempotency_key FROM jobs AS j WHERE j.session_id = s.id;
CREATE UNIQUE INDEX sessions_organization_idempotency ON sessions (organization_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
