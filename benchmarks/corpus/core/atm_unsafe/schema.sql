CREATE TABLE Account (
  Accno   INT NOT NULL,
  name    VARCHAR(64) NOT NULL,
  balance INT NOT NULL,
  PRIMARY KEY (Accno)
);
