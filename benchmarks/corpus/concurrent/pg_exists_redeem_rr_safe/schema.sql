CREATE TABLE cards (
    code        VARCHAR(32) PRIMARY KEY,
    value_cents BIGINT NOT NULL
);
