CREATE TABLE quotas (
  user_id BIGINT PRIMARY KEY,
  used BIGINT NOT NULL,
  floor_units BIGINT
);
