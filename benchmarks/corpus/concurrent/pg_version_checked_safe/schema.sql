CREATE TABLE products (
    id       BIGINT PRIMARY KEY,
    stock    BIGINT NOT NULL,
    sold     BIGINT NOT NULL,
    received BIGINT NOT NULL,
    version  BIGINT NOT NULL
);
