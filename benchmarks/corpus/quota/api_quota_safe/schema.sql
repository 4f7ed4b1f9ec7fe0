CREATE TABLE quotas (
  tenant_id VARCHAR(64) NOT NULL,
  quota     BIGINT      NOT NULL,
  used      BIGINT      NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id)
);
