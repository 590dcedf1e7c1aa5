-- Re-scoring: a job that scores a session's stored landmark track again with a
-- stored rule version (no models run), writing a new analysis beside the old
-- ones. Exactly one analysis of a session is current (the newest); re-scores
-- are marked as such.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('analyze_video', 'score_track', 'rescore'));
ALTER TABLE jobs ADD COLUMN rules_version text;
ALTER TABLE jobs ADD CONSTRAINT jobs_rescore_version CHECK ((kind = 'rescore') = (rules_version IS NOT NULL));

ALTER TABLE analyses
    ADD COLUMN current boolean NOT NULL DEFAULT false,
    ADD COLUMN rescore boolean NOT NULL DEFAULT false;
UPDATE analyses AS a SET current = true
WHERE a.id = (SELECT b.id FROM analyses AS b WHERE b.session_id = a.session_id ORDER BY b.created_at DESC, b.id DESC LIMIT 1);
CREATE UNIQUE INDEX analyses_current ON analyses (session_id) WHERE current;
