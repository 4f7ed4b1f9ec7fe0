ALTER TABLE users ADD CONSTRAINT used_le_quota CHECK (used <= quota);
CREATE UNIQUE INDEX users_name_key ON users (name);
