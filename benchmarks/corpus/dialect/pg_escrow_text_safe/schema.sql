-- text compares byte for byte (a deterministic collation).
CREATE TABLE traders (
  handle TEXT NOT NULL PRIMARY KEY,
  credit BIGINT NOT NULL,
  reserved BIGINT NOT NULL
);
