-- A fixed-width handle: bpchar comparisons ignore trailing blanks.
CREATE TABLE traders (
  handle CHAR(12) NOT NULL PRIMARY KEY,
  credit BIGINT NOT NULL,
  reserved BIGINT NOT NULL
);
