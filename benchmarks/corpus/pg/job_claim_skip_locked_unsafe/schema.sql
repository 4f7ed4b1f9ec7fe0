CREATE TABLE jobs (
    id           BIGINT PRIMARY KEY,
    status       TEXT NOT NULL,
    attempts     INT NOT NULL,
    max_attempts INT NOT NULL
);
