CREATE TABLE wallets (
  user_id BIGINT PRIMARY KEY,
  points  BIGINT NOT NULL,
  cap     BIGINT NOT NULL
);
