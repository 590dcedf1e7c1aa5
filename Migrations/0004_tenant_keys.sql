-- Every row a tenant owns says so, and the database keeps tenants apart on its
-- own: a session's athlete, an analysis's session, a track's session, a rep's
-- and a fault's analysis all belong to the same organization (composite
-- foreign keys), whatever the code above it does.
ALTER TABLE athletes ADD CONSTRAINT athletes_id_organization UNIQUE (id, organization_id);
ALTER TABLE sessions ADD CONSTRAINT sessions_id_organization UNIQUE (id, organization_id);
ALTER TABLE analyses ADD CONSTRAINT analyses_id_organization UNIQUE (id, organization_id);

ALTER TABLE sessions
    ADD CONSTRAINT sessions_athlete_same_organization
    FOREIGN KEY (athlete_id, organization_id) REFERENCES athletes (id, organization_id);
ALTER TABLE analyses
    ADD CONSTRAINT analyses_session_same_organization
    FOREIGN KEY (session_id, organization_id) REFERENCES sessions (id, organization_id) ON DELETE CASCADE;

ALTER TABLE landmark_tracks ADD COLUMN organization_id uuid;
UPDATE landmark_tracks AS t SET organization_id = s.organization_id FROM sessions AS s WHERE s.id = t.session_id;
ALTER TABLE landmark_tracks
    ALTER COLUMN organization_id SET NOT NULL,
    ADD CONSTRAINT landmark_tracks_session_same_organization
    FOREIGN KEY (session_id, organization_id) REFERENCES sessions (id, organization_id) ON DELETE CASCADE;

ALTER TABLE reps ADD COLUMN organization_id uuid;
UPDATE reps AS r SET organization_id = a.organization_id FROM analyses AS a WHERE a.id = r.analysis_id;
ALTER TABLE reps
    ALTER COLUMN organization_id SET NOT NULL,
    ADD CONSTRAINT reps_analysis_same_organization
    FOREIGN KEY (analysis_id, organization_id) REFERENCES analyses (id, organization_id) ON DELETE CASCADE;

ALTER TABLE faults ADD COLUMN organization_id uuid;
UPDATE faults AS f SET organization_id = a.organization_id FROM analyses AS a WHERE a.id = f.analysis_id;
ALTER TABLE faults
    ALTER COLUMN organization_id SET NOT NULL,
    ADD CONSTRAINT faults_analysis_same_organization
    FOREIGN KEY (analysis_id, organization_id) REFERENCES analyses (id, organization_id) ON DELETE CASCADE;

-- Fair claiming looks at each organization's running jobs.
CREATE INDEX jobs_organization_running ON jobs (organization_id) WHERE state = 'running';
