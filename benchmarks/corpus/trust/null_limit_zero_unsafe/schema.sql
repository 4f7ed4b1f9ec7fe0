CREATE TABLE cards (
  id BIGINT PRIMARY KEY,
  withdrawn BIGINT NOT NULL,
  daily_limit BIGINT
);
