-- API keys carry their role (contracts §1: `spotter keys create --role coach|admin`):
-- a key need not belong to a user. Organizations are found by name when keys are made.
ALTER TABLE api_keys
    ADD COLUMN role text NOT NULL DEFAULT 'coach' CHECK (role IN ('coach', 'admin'));
CREATE INDEX organizations_name ON organizations (name);
