CREATE TABLE quotas (
  id      BIGINT      NOT NULL AUTO_INCREMENT,
  api_key VARCHAR(64) NOT NULL,
  quota   BIGINT      NOT NULL,
  used    BIGINT      NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  KEY quotas_api_key (api_key)
);
