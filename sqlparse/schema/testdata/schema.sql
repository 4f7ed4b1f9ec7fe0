-- A MySQL schema with keys and checks.
CREATE TABLE accounts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  owner VARCHAR(64) NOT NULL,
  email varchar(255) UNIQUE,
  balance DECIMAL(12, 2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  overdraft INT NOT NULL DEFAULT 0,
  note TEXT, -- a comment; with a semicolon
  PRIMARY KEY (id),
  UNIQUE KEY owner_email (owner, email),
  CONSTRAINT overdraft_limit CHECK (overdraft BETWEEN 0 AND 1000),
  CHECK (balance + overdraft >= 0),
  KEY by_owner (owner)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO accounts (owner) VALUES ('x;y');

CREATE TABLE `stock` (
  `sku` varchar(32) PRIMARY KEY,
  `qty` int NOT NULL,
  `cap` int NOT NULL,
  CONSTRAINT `qty_range` CHECK (`qty` >= 0 AND `qty` <= `cap`)
);

CREATE VIEW rich AS SELECT * FROM accounts WHERE balance > 1000;
