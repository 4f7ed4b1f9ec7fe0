CREATE TABLE products (
    id    BIGINT PRIMARY KEY,
    stock BIGINT NOT NULL
);
