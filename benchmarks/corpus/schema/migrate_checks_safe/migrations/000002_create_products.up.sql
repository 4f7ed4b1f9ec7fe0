CREATE TABLE products (
    id         BIGSERIAL   PRIMARY KEY,
    sku        TEXT        NOT NULL UNIQUE,
    name       TEXT        NOT NULL,
    stock      INTEGER     NOT NULL DEFAULT 0,
    price      BIGINT      NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT positive_stock CHECK (stock >= 0)
);
