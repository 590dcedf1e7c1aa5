-- A client's Idempotency-Key on POST /v1/webhooks: a retry with the same key
-- returns the endpoint its first request made (with its current secret)
-- instead of registering a second one. Keys are the organization's own.
ALTER TABLE webhook_endpoints ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX webhook_endpoints_idempotency ON webhook_endpoints (organization_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
