CREATE TABLE products (
    id    BIGINT PRIMARY KEY,
    stock BIGINT NOT NULL
);

CREATE TABLE watchers (
    product_id BIGINT NOT NULL,
    email      TEXT NOT NULL,
    PRIMARY KEY (product_id, email)
);
