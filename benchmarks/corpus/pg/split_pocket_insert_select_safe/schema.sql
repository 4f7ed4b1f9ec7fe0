CREATE TABLE wallets (
    id        BIGINT PRIMARY KEY,
    parent_id BIGINT,
    currency  TEXT NOT NULL,
    balance   BIGINT NOT NULL
);
