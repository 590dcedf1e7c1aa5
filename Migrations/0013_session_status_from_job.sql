-- A session's status is read from its analysis job while that job exists, so
-- that claiming and finishing a job write the job's row alone (two writes of
-- the session's row per job were a third of the queue's cost). `status` and
-- `failure_reason` on the session keep what the job ended as once finished jobs
-- are deleted (`JobQueue.deleteFinished` copies them there first); before that
-- they are not read.
CREATE VIEW session_statuses AS
SELECT s.id, s.organization_id,
       CASE j.state
           WHEN 'queued' THEN 'pending'
           WHEN 'running' THEN 'analysing'
           WHEN 'succeeded' THEN 'analysed'
           WHEN 'failed' THEN 'failed'
           WHEN 'dead' THEN 'failed'
           WHEN 'cancelled' THEN 'cancelled'
           ELSE s.status
       END AS status,
       CASE WHEN j.id IS NULL THEN s.failure_reason WHEN j.state IN ('failed', 'dead') THEN j.last_error END AS failure_reason
FROM sessions AS s
LEFT JOIN jobs AS j ON j.session_id = s.id AND j.kind <> 'rescore';
