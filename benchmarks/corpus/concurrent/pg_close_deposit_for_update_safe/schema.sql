CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL,
    closed  INT NOT NULL DEFAULT 0
);
