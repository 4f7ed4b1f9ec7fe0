-- Prices were allowed to be negative by an import job; forbid it.
UPDATE products SET price = 0 WHERE price < 0;
ALTER TABLE products ADD CONSTRAINT price_not_negative CHECK (price >= 0);
