CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL
);
CREATE TABLE withdrawals (
    request_id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL,
    amount     BIGINT NOT NULL
);
