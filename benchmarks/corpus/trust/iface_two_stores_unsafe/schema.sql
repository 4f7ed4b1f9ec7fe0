CREATE TABLE credits (
  customer_id BIGINT PRIMARY KEY,
  amount BIGINT NOT NULL,
  snapshot_amount BIGINT NOT NULL
);
