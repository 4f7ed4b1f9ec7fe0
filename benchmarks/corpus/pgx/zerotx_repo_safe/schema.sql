CREATE TABLE wallets (id bigint PRIMARY KEY, balance bigint NOT NULL);
