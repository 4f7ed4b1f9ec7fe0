CREATE TABLE accounts (account_id BIGINT PRIMARY KEY, balance BIGINT NOT NULL);
CREATE TABLE transfers (transfer_id BIGINT PRIMARY KEY, account_id BIGINT NOT NULL, total BIGINT NOT NULL, status TEXT NOT NULL);
