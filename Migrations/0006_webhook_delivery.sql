-- Webhooks: secrets stored sealed (AES-256-GCM under SPOTTER_WEBHOOK_KEY, bound
-- to the endpoint's id), so that a dump of the database alone cannot sign; the
-- previous secret kept for 24 hours after a rotation; endpoints disabled with a
-- reason the owner can read; one delivery per (event, endpoint), claimed with
-- a lease like jobs, and every attempt recorded with its latency.

-- No endpoint could be made before this migration (no command or API wrote the
-- table), so the column of secrets in clear goes without a copy.
ALTER TABLE webhook_endpoints DROP COLUMN secret;
ALTER TABLE webhook_endpoints
    ADD COLUMN secret_sealed          bytea       NOT NULL,
    ADD COLUMN previous_secret_sealed bytea,
    ADD COLUMN previous_secret_until  timestamptz,
    ADD COLUMN disabled_reason        text,
    ADD COLUMN disabled_at            timestamptz,
    ADD COLUMN failing_since          timestamptz,
    ADD CONSTRAINT webhook_endpoints_disabled CHECK (enabled OR disabled_at IS NOT NULL),
    ADD CONSTRAINT webhook_endpoints_previous CHECK ((previous_secret_sealed IS NULL) = (previous_secret_until IS NULL));
-- Deliveries and attempts name the endpoint together with its organization.
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_tenant UNIQUE (organization_id, id);

CREATE TABLE webhook_deliveries (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id  uuid        NOT NULL,
    event_id         bigint      NOT NULL REFERENCES outbox_events ON DELETE CASCADE,
    endpoint_id      uuid        NOT NULL,
    state            text        NOT NULL DEFAULT 'pending'
                                 CHECK (state IN ('pending', 'delivering', 'delivered', 'dead', 'cancelled')),
    attempts         integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    -- The attempts made before the last replay: the retry schedule starts again after it.
    attempts_before_replay integer NOT NULL DEFAULT 0 CHECK (attempts_before_replay BETWEEN 0 AND attempts),
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    lease_id         uuid,
    lease_expires_at timestamptz,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,
    UNIQUE (event_id, endpoint_id),
    FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE,
    CHECK ((state = 'delivering') = (lease_id IS NOT NULL AND lease_expires_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (lease_expires_at) WHERE state = 'delivering';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

ALTER TABLE delivery_attempts
    ADD COLUMN delivery_id       bigint  REFERENCES webhook_deliveries ON DELETE CASCADE,
    ADD COLUMN latency_ms        integer CHECK (latency_ms >= 0),
    ADD COLUMN response_excerpt  text;
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempt);
