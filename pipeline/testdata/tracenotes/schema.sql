CREATE TABLE accounts (id bigint PRIMARY KEY, usd bigint NOT NULL, eur bigint NOT NULL);
CREATE TABLE shows (id integer PRIMARY KEY, booked integer NOT NULL, capacity integer NOT NULL);
CREATE TABLE wallets (id bigint PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE audit (id bigserial PRIMARY KEY, wallet_id bigint NOT NULL, delta bigint NOT NULL);
CREATE TABLE credit_lines (id bigint PRIMARY KEY, used bigint NOT NULL, credit_limit bigint NOT NULL);
CREATE TABLE downloads (file_id bigint PRIMARY KEY, n bigint NOT NULL, max_n bigint NOT NULL);
