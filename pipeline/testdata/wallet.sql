CREATE TABLE wallets (
  id      BIGSERIAL PRIMARY KEY,
  balance BIGINT NOT NULL CHECK (balance >= 0),
  hold    BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT hold_nonneg CHECK (hold >= 0)
);
