-- Handles compare byte for byte (BINARY, the default collation).
CREATE TABLE traders (
  handle TEXT NOT NULL PRIMARY KEY,
  credit INTEGER NOT NULL,
  reserved INTEGER NOT NULL
);
