-- utf8mb4_nopad_bin (MariaDB; MySQL 8: utf8mb4_0900_bin) compares the
-- bytes of the handles, trailing spaces included: two Go-distinct
-- handles are two rows.
CREATE TABLE traders (
  handle VARCHAR(32) COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
  credit BIGINT NOT NULL,
  reserved BIGINT NOT NULL
);
