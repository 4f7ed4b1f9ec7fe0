CREATE TABLE accounts (
  id      BIGINT PRIMARY KEY,
  kind    VARCHAR(20) NOT NULL,
  balance BIGINT NOT NULL
);
