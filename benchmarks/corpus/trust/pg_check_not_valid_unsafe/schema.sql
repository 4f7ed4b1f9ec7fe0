CREATE TABLE wallets (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL);
CREATE TABLE holds (id BIGINT PRIMARY KEY, wallet_id BIGINT NOT NULL, amount BIGINT NOT NULL);
-- Added without a long lock: PostgreSQL checks new and updated rows only,
-- not the holds the table already has.
ALTER TABLE holds ADD CONSTRAINT holds_amount_positive CHECK (amount > 0) NOT VALID;
