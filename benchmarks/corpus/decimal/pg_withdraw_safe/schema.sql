CREATE TABLE wallets (
  id         BIGSERIAL PRIMARY KEY,
  owner_id   BIGINT NOT NULL,
  currency   CHAR(3) NOT NULL,
  balance    NUMERIC(18, 2) NOT NULL DEFAULT 0,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE wallet_entries (
  id         BIGSERIAL PRIMARY KEY,
  wallet_id  BIGINT NOT NULL REFERENCES wallets (id),
  amount     NUMERIC(18, 2) NOT NULL,
  kind       TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
