ALTER TABLE products DROP CONSTRAINT IF EXISTS price_not_negative;
ALTER TABLE products DROP CONSTRAINT IF EXISTS positive_stock;
ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_balance_check;
