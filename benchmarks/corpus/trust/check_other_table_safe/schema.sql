CREATE TABLE products (
    id    BIGINT PRIMARY KEY,
    stock BIGINT NOT NULL
);

CREATE TABLE returns (
    id       BIGSERIAL PRIMARY KEY,
    order_id BIGINT NOT NULL,
    qty      BIGINT NOT NULL CHECK (qty > 0)
);
