CREATE TABLE products (
    id    BIGINT PRIMARY KEY,
    stock BIGINT NOT NULL
);

CREATE TABLE orders (
    id         BIGSERIAL PRIMARY KEY,
    product_id BIGINT NOT NULL REFERENCES products (id),
    qty        BIGINT NOT NULL
);

CREATE FUNCTION take_stock() RETURNS trigger AS $$
BEGIN
    UPDATE products SET stock = stock - NEW.qty WHERE id = NEW.product_id;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER orders_take_stock AFTER INSERT ON orders
    FOR EACH ROW EXECUTE FUNCTION take_stock();
