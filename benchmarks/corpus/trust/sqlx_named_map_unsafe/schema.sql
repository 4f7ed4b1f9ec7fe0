CREATE TABLE members (
    id     BIGINT PRIMARY KEY,
    points BIGINT NOT NULL
);
