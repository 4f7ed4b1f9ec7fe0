CREATE TABLE accounts (
  id      INTEGER PRIMARY KEY,
  balance INTEGER NOT NULL
);
