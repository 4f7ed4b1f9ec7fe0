CREATE TABLE quotas (
    user_email  TEXT PRIMARY KEY,
    used        BIGINT NOT NULL,
    quota_limit BIGINT
);
