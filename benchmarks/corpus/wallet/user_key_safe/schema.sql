CREATE TABLE wallets (
  user_id    BIGINT NOT NULL,
  credits    BIGINT NOT NULL DEFAULT 0,
  updated_at TIMESTAMP NULL,
  PRIMARY KEY (user_id)
);
