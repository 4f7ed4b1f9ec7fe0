-- Handles are unique whatever their case.
CREATE TABLE traders (
  handle TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
  credit INTEGER NOT NULL,
  reserved INTEGER NOT NULL
);
