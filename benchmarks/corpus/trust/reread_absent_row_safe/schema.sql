CREATE TABLE wallets (member_id BIGINT PRIMARY KEY, points BIGINT NOT NULL);
CREATE TABLE redemption_caps (member_id BIGINT PRIMARY KEY, max_points BIGINT NOT NULL, active BOOLEAN NOT NULL);
CREATE TABLE pending_redemptions (id BIGSERIAL PRIMARY KEY, member_id BIGINT NOT NULL, points BIGINT NOT NULL);
