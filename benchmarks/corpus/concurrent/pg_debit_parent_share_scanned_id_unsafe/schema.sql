CREATE TABLE customers (
    id   BIGINT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT ''
);
CREATE TABLE wallets (
    customer_id BIGINT PRIMARY KEY REFERENCES customers (id),
    cents       BIGINT NOT NULL
);
