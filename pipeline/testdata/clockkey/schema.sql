CREATE TABLE rate_limits (
  user_id TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  hits BIGINT NOT NULL,
  max_hits BIGINT NOT NULL,
  PRIMARY KEY (user_id, window_start)
);
