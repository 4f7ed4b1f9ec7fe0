CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL,
    hold    BIGINT NOT NULL
);
