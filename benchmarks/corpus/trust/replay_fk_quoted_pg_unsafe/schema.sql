CREATE TABLE accounts (
  id BIGSERIAL PRIMARY KEY,
  owner TEXT NOT NULL DEFAULT '',
  balance BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE "transferLog" (
  id BIGSERIAL PRIMARY KEY,
  "fromAccount" BIGINT NOT NULL REFERENCES accounts (id),
  "toAccount" BIGINT NOT NULL REFERENCES accounts (id),
  amount BIGINT NOT NULL
);
