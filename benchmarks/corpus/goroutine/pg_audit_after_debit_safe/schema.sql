CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL
);
CREATE TABLE audit_log (
    id         BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL,
    amount     BIGINT NOT NULL
);
