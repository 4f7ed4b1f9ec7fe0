CREATE TABLE wallets (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL
);
