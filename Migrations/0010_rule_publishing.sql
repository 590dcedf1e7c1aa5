-- Rules as admins publish them (spotter rules publish / rollback). A published
-- version carries who published it and why; the newest published version of an
-- exercise is the one workers score with. Versions a worker recorded from its own
-- rule files (the text its reports name) stay unpublished. No version's text,
-- number or exercise ever changes.
ALTER TABLE rule_versions
    ADD COLUMN published boolean NOT NULL DEFAULT false,
    ADD COLUMN author    text,
    ADD COLUMN message   text;
CREATE INDEX rule_versions_published ON rule_versions (exercise, id DESC) WHERE published;

CREATE FUNCTION rule_versions_keep_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.body IS DISTINCT FROM OLD.body OR NEW.version IS DISTINCT FROM OLD.version
       OR NEW.exercise IS DISTINCT FROM OLD.exercise THEN
        RAISE EXCEPTION 'rule version %@% cannot be changed: publish a new version', OLD.exercise, OLD.version;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER rule_versions_keep_text BEFORE UPDATE ON rule_versions
    FOR EACH ROW EXECUTE FUNCTION rule_versions_keep_text();
