CREATE TABLE balance (
  user_id UUID PRIMARY KEY,
  available BIGINT NOT NULL,
  reserved BIGINT NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
