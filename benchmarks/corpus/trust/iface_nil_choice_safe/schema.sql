CREATE TABLE accounts (id bigint PRIMARY KEY, balance bigint NOT NULL);
