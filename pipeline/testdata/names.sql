CREATE TABLE products (
  id         BIGSERIAL PRIMARY KEY,
  name       TEXT NOT NULL,
  currency   VARCHAR(3) NOT NULL,
  stock      BIGINT NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT now()
);
