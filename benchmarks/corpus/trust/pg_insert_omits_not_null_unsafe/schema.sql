CREATE TABLE quotas (
    username    TEXT PRIMARY KEY,
    used        BIGINT NOT NULL,
    quota_limit BIGINT NOT NULL DEFAULT 0
);
