CREATE TABLE members (
    id          BIGINT PRIMARY KEY,
    credits     BIGINT NOT NULL DEFAULT 0,
    archived_at TIMESTAMPTZ
);
