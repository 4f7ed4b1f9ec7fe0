CREATE TABLE accounts (
    id BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
