CREATE TABLE api_keys (
    key_id   TEXT PRIMARY KEY,
    used     BIGINT NOT NULL,
    quota    BIGINT NOT NULL,
    reset_at TIMESTAMPTZ NOT NULL
);
