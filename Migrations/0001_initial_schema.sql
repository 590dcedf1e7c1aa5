-- Spotter's first schema: tenants and their people, uploaded sessions, the job
-- queue, analyses with their reps and faults as rows, stored landmark tracks,
-- published rule versions, and the webhook outbox.
--
-- Every row a tenant owns carries organization_id, so that every query can be
-- scoped to one tenant.

CREATE TABLE organizations (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text        NOT NULL CHECK (name <> ''),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Coaches read reports; admins also author rules and manage keys and webhooks.
CREATE TABLE users (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    email            text        NOT NULL CHECK (position('@' in email) > 1),
    display_name     text        NOT NULL,
    role             text        NOT NULL CHECK (role IN ('coach', 'admin')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, email)
);

-- An API key is shown once; only its SHA-256 is kept. The prefix finds the row.
CREATE TABLE api_keys (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    user_id          uuid        REFERENCES users ON DELETE CASCADE,
    name             text        NOT NULL,
    prefix           text        NOT NULL UNIQUE,
    secret_sha256    bytea       NOT NULL CHECK (length(secret_sha256) = 32),
    created_at       timestamptz NOT NULL DEFAULT now(),
    last_used_at     timestamptz,
    revoked_at       timestamptz
);
CREATE INDEX api_keys_organization ON api_keys (organization_id);

CREATE TABLE athletes (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    external_ref     text,
    display_name     text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, external_ref)
);

-- An uploaded workout: a video, or a landmark track made on a phone.
CREATE TABLE sessions (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    athlete_id       uuid        REFERENCES athletes ON DELETE SET NULL,
    exercise         text        NOT NULL,
    source_kind      text        NOT NULL CHECK (source_kind IN ('video', 'track')),
    -- A local path or an http(s) URL.
    source_uri       text        NOT NULL,
    size_bytes       bigint      CHECK (size_bytes >= 0),
    duration_ms      bigint      CHECK (duration_ms >= 0),
    status           text        NOT NULL DEFAULT 'pending'
                                 CHECK (status IN ('pending', 'analysing', 'analysed', 'failed', 'cancelled')),
    failure_reason   text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_organization_created ON sessions (organization_id, created_at DESC);
CREATE INDEX sessions_athlete_created ON sessions (athlete_id, created_at DESC) WHERE athlete_id IS NOT NULL;

-- Exercise rules as published by admins; a report names the version it used.
CREATE TABLE rule_versions (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    exercise      text        NOT NULL,
    version       text        NOT NULL,
    body          text        NOT NULL,
    body_sha256   text        NOT NULL,
    published_by  uuid        REFERENCES users ON DELETE SET NULL,
    published_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (exercise, version)
);

-- The queue. A running job holds a lease (lease_id, lease_expires_at) that its
-- worker extends by heartbeats; only the lease holder may finish the job.
CREATE TABLE jobs (
    id                 bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id    uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    session_id         uuid        NOT NULL REFERENCES sessions ON DELETE CASCADE,
    kind               text        NOT NULL CHECK (kind IN ('analyze_video', 'score_track')),
    idempotency_key    text        NOT NULL,
    state              text        NOT NULL DEFAULT 'queued'
                                   CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'dead', 'cancelled')),
    priority           integer     NOT NULL DEFAULT 0,
    run_at             timestamptz NOT NULL DEFAULT now(),
    -- Failed runs so far; a run whose worker vanished counts in lease_expirations instead.
    attempts           integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts       integer     NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
    lease_expirations  integer     NOT NULL DEFAULT 0 CHECK (lease_expirations >= 0),
    lease_id           uuid,
    lease_expires_at   timestamptz,
    leased_by          text,
    heartbeat_at       timestamptz,
    cancel_requested   boolean     NOT NULL DEFAULT false,
    last_error         text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    finished_at        timestamptz,
    UNIQUE (organization_id, idempotency_key),
    CHECK ((state = 'running') = (lease_id IS NOT NULL AND lease_expires_at IS NOT NULL)),
    CHECK ((state IN ('succeeded', 'failed', 'dead', 'cancelled')) = (finished_at IS NOT NULL))
);
CREATE INDEX jobs_ready ON jobs (priority DESC, run_at, id) WHERE state = 'queued';
CREATE INDEX jobs_leases ON jobs (lease_expires_at) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX jobs_session ON jobs (session_id);

-- A landmark track, packed (LandmarkTracks' binary packing), for re-scoring without models.
CREATE TABLE landmark_tracks (
    session_id   uuid        PRIMARY KEY REFERENCES sessions ON DELETE CASCADE,
    packing      text        NOT NULL,
    frame_count  integer     NOT NULL CHECK (frame_count >= 0),
    data         bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- A report (spotter.report/v1) and the rules version it was scored with.
CREATE TABLE analyses (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    session_id       uuid        NOT NULL REFERENCES sessions ON DELETE CASCADE,
    job_id           bigint      REFERENCES jobs ON DELETE SET NULL,
    exercise         text        NOT NULL,
    rules_version    text        NOT NULL,
    rep_count        integer     NOT NULL CHECK (rep_count >= 0),
    hold_ms          integer     CHECK (hold_ms >= 0),
    report           jsonb       NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analyses_session_created ON analyses (session_id, created_at DESC);
CREATE INDEX analyses_organization_created ON analyses (organization_id, created_at DESC);
CREATE INDEX analyses_job ON analyses (job_id) WHERE job_id IS NOT NULL;

CREATE TABLE reps (
    analysis_id  uuid    NOT NULL REFERENCES analyses ON DELETE CASCADE,
    index        integer NOT NULL CHECK (index >= 1),
    start_ms     integer NOT NULL,
    bottom_ms    integer,
    end_ms       integer NOT NULL CHECK (end_ms >= start_ms),
    metrics      jsonb   NOT NULL,
    PRIMARY KEY (analysis_id, index)
);

CREATE TABLE faults (
    id           bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    analysis_id  uuid    NOT NULL REFERENCES analyses ON DELETE CASCADE,
    rep_index    integer,
    code         text    NOT NULL,
    severity     text    NOT NULL,
    start_ms     integer NOT NULL,
    end_ms       integer NOT NULL CHECK (end_ms >= start_ms),
    message      text    NOT NULL,
    FOREIGN KEY (analysis_id, rep_index) REFERENCES reps (analysis_id, index) ON DELETE CASCADE
);
CREATE INDEX faults_analysis ON faults (analysis_id);
CREATE INDEX faults_code ON faults (code, analysis_id);

-- Webhooks: endpoints per tenant, events written in the same transaction as what
-- they announce (the outbox), and every delivery attempt.
CREATE TABLE webhook_endpoints (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    url              text        NOT NULL CHECK (url ~ '^https?://'),
    -- whsec_… as shown to the client; needed in clear to sign deliveries.
    secret           text        NOT NULL CHECK (secret LIKE 'whsec\_%'),
    event_types      text[]      NOT NULL DEFAULT ARRAY['analysis.completed', 'analysis.failed'],
    enabled          boolean     NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_organization ON webhook_endpoints (organization_id) WHERE enabled;

CREATE TABLE outbox_events (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The stable webhook-id of every delivery of this event.
    event_id         text        NOT NULL UNIQUE,
    organization_id  uuid        NOT NULL REFERENCES organizations ON DELETE CASCADE,
    event_type       text        NOT NULL,
    payload          jsonb       NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    dispatched_at    timestamptz
);
CREATE INDEX outbox_events_pending ON outbox_events (id) WHERE dispatched_at IS NULL;

CREATE TABLE delivery_attempts (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id      bigint      NOT NULL REFERENCES outbox_events ON DELETE CASCADE,
    endpoint_id   uuid        NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
    attempt       integer     NOT NULL CHECK (attempt >= 1),
    outcome       text        NOT NULL CHECK (outcome IN ('delivered', 'failed', 'refused')),
    status_code   integer,
    error         text,
    attempted_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, endpoint_id, attempt)
);
CREATE INDEX delivery_attempts_endpoint ON delivery_attempts (endpoint_id, attempted_at DESC);
