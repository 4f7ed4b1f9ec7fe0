CREATE TABLE cards (
    code        TEXT PRIMARY KEY,
    value_cents BIGINT NOT NULL
);
