CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    owner   VARCHAR(64) NOT NULL,
    balance BIGINT NOT NULL
);
