CREATE TABLE balances (
    id      BIGINT PRIMARY KEY,
    amount  BIGINT NOT NULL,
    version BIGINT NOT NULL
);
