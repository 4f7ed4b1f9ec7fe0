-- +goose Up
ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status = ANY (ARRAY['new'::text, 'paid'::text]));

-- +goose Down
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
