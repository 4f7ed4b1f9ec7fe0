CREATE TABLE limits (
  client_id BIGINT PRIMARY KEY,
  used BIGINT NOT NULL,
  max_per_window BIGINT NOT NULL,
  window_start BIGINT NOT NULL
);
