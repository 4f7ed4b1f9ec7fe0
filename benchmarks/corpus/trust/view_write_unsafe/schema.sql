CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    closed  BOOLEAN NOT NULL DEFAULT false,
    balance BIGINT NOT NULL
);

CREATE VIEW open_accounts AS
    SELECT id, balance FROM accounts WHERE NOT closed;
