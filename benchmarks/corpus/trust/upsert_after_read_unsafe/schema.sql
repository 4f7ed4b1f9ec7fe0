CREATE TABLE spend (
  account_id BIGINT PRIMARY KEY,
  total BIGINT NOT NULL
);
