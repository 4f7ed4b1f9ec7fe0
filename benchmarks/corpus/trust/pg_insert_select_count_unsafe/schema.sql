CREATE TABLE products (
    sku   TEXT PRIMARY KEY,
    price BIGINT NOT NULL
);
CREATE TABLE order_lines (
    id         BIGSERIAL PRIMARY KEY,
    order_id   BIGINT NOT NULL,
    sku        TEXT NOT NULL,
    unit_price BIGINT NOT NULL
);
CREATE TABLE carts (
    id    BIGINT PRIMARY KEY,
    slots BIGINT NOT NULL
);
