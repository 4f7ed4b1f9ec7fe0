CREATE TABLE wallets (id bigint PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE shows (id bigint PRIMARY KEY, booked bigint NOT NULL, seats bigint NOT NULL);
CREATE TABLE entries (id bigserial PRIMARY KEY, wallet_id bigint NOT NULL, amount bigint NOT NULL);
