CREATE TABLE products (
    id    BIGINT PRIMARY KEY,
    price BIGINT NOT NULL
);
