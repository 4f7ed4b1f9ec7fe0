CREATE TABLE accounts (id bigint PRIMARY KEY, usd bigint NOT NULL, eur bigint NOT NULL);
CREATE TABLE shows (id integer PRIMARY KEY, booked integer NOT NULL, capacity integer NOT NULL);
