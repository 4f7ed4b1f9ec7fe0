ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email);
ALTER TABLE users ALTER COLUMN email SET NOT NULL;
-- Relax the quota check (only right if 2_quota ran before this file).
ALTER TABLE users DROP CONSTRAINT used_le_quota;
ALTER TABLE users ADD CONSTRAINT used_le_quota CHECK (used <= quota + 5);
