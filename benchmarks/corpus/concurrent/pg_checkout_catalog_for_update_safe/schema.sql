CREATE TABLE customers (
    id    BIGINT PRIMARY KEY,
    tier  BIGINT NOT NULL
);
CREATE TABLE tier_discounts (
    tier    BIGINT PRIMARY KEY,
    percent BIGINT NOT NULL
);
CREATE TABLE shipping_zones (
    zone BIGINT PRIMARY KEY,
    fee  BIGINT NOT NULL
);
CREATE TABLE tax_rates (
    zone    BIGINT PRIMARY KEY,
    percent BIGINT NOT NULL
);
CREATE TABLE inventory (
    product_id BIGINT PRIMARY KEY,
    stock      BIGINT NOT NULL
);
