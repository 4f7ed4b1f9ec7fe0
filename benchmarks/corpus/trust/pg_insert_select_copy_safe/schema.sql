CREATE TABLE products (
    sku   TEXT PRIMARY KEY,
    price BIGINT NOT NULL CHECK (price >= 0)
);
CREATE TABLE order_lines (
    id         BIGSERIAL PRIMARY KEY,
    order_id   BIGINT NOT NULL,
    sku        TEXT NOT NULL,
    qty        BIGINT NOT NULL,
    unit_price BIGINT NOT NULL
);
