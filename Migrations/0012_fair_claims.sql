-- Claims in one statement that reads indexes only: the organizations with a
-- queued job (walked one step per organization), each one's most urgent ready job,
-- then the organization with the fewest running jobs first.
CREATE INDEX jobs_organization_ready ON jobs (organization_id, priority DESC, run_at, id) WHERE state = 'queued';
