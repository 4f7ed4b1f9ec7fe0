CREATE TABLE merchants (
  id              BIGINT NOT NULL AUTO_INCREMENT,
  name            VARCHAR(200) NOT NULL,
  pending         DECIMAL(12, 2) NOT NULL DEFAULT 0.00,
  payouts_enabled TINYINT(1) NOT NULL DEFAULT 1,
  PRIMARY KEY (id)
);

CREATE TABLE payouts (
  id          BIGINT NOT NULL AUTO_INCREMENT,
  merchant_id BIGINT NOT NULL,
  amount      DECIMAL(12, 2) NOT NULL,
  fee         DECIMAL(12, 2) NOT NULL,
  status      VARCHAR(16) NOT NULL,
  PRIMARY KEY (id)
);
