CREATE TABLE accounts (
  tenant_id BIGINT NOT NULL,
  id BIGINT NOT NULL,
  balance BIGINT NOT NULL,
  deleted_at TIMESTAMPTZ,
  PRIMARY KEY (tenant_id, id)
);
