CREATE TABLE accounts (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL
);
CREATE TABLE invoices (
    id   BIGINT PRIMARY KEY,
    paid BOOLEAN NOT NULL DEFAULT false
);
