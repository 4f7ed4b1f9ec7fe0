-- The server's default collation (MariaDB: utf8mb4_general_ci) compares
-- handles ignoring case and trailing spaces.
CREATE TABLE traders (
  handle VARCHAR(32) NOT NULL PRIMARY KEY,
  credit BIGINT NOT NULL,
  reserved BIGINT NOT NULL
);
