-- utf8mb4_bin compares bytes but, as a PAD SPACE collation, ignores
-- trailing spaces: 'ada' = 'ada '.
CREATE TABLE traders (
  handle VARCHAR(32) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
  credit BIGINT NOT NULL,
  reserved BIGINT NOT NULL
);
