-- Imported from a CSV export: no key, an id may appear twice.
CREATE TABLE wallets (
    id      BIGINT NOT NULL,
    balance BIGINT NOT NULL
);
