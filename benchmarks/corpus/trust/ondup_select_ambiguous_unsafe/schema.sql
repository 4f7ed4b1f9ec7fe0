CREATE TABLE cart_items (cart_id BIGINT NOT NULL, sku BIGINT NOT NULL, qty BIGINT NOT NULL, PRIMARY KEY (cart_id, sku));
