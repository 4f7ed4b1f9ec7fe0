CREATE TABLE wallets (id bigint PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE shows (id bigint PRIMARY KEY, booked bigint NOT NULL, seats bigint NOT NULL);
