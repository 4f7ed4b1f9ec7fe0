-- +goose Up
-- +goose StatementBegin
CREATE TABLE orders (
    id bigserial NOT NULL,
    amount numeric(10,2) NOT NULL,
    discount numeric(10,2) NOT NULL DEFAULT 0,
    status text NOT NULL DEFAULT 'new',
    CONSTRAINT orders_pkey PRIMARY KEY (id),
    CONSTRAINT discount_le_amount CHECK (discount <= amount),
    CHECK (amount > 0::numeric)
);
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION touch() RETURNS trigger AS $$
BEGIN
  NEW.status := 'touched';
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose Down
DROP TABLE orders;
CREATE TABLE broken (;
