CREATE TABLE limits (
    id    BIGINT PRIMARY KEY,
    spent BIGINT NOT NULL,
    cap   BIGINT
);
