CREATE TABLE accounts (
  id      INTEGER PRIMARY KEY,
  balance REAL NOT NULL
);
