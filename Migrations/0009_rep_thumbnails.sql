-- A picture of each rep's turn (the frame at bottom_ms, with the skeleton drawn),
-- JPEG, made by the worker where it analysed a video; the coach page shows them.
CREATE TABLE rep_thumbnails (
    analysis_id      uuid    NOT NULL,
    rep_index        integer NOT NULL CHECK (rep_index >= 1),
    organization_id  uuid    NOT NULL,
    jpeg             bytea   NOT NULL CHECK (octet_length(jpeg) BETWEEN 1 AND 1048576),
    PRIMARY KEY (analysis_id, rep_index),
    FOREIGN KEY (analysis_id, rep_index) REFERENCES reps (analysis_id, index) ON DELETE CASCADE,
    FOREIGN KEY (analysis_id, organization_id) REFERENCES analyses (id, organization_id) ON DELETE CASCADE
);
