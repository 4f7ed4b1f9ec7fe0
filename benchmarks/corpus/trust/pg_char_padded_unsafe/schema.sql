CREATE TABLE accounts (
  id      BIGINT PRIMARY KEY,
  kind    CHAR(10) NOT NULL,
  balance BIGINT NOT NULL
);
