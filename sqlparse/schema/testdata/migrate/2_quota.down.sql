ALTER TABLE users DROP CONSTRAINT used_le_quota;
