CREATE TABLE accounts (id bigint PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE debts (id bigserial PRIMARY KEY, account_id bigint NOT NULL, amount bigint NOT NULL);
