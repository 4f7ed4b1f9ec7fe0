CREATE TABLE fraud_flags (
    member_id BIGINT PRIMARY KEY,
    blocked   BOOLEAN NOT NULL
);
CREATE TABLE redemption_limits (
    member_id BIGINT PRIMARY KEY,
    max_points BIGINT NOT NULL
);
CREATE TABLE campaigns (
    id            BIGINT PRIMARY KEY,
    bonus_percent BIGINT NOT NULL
);
CREATE TABLE wallets (
    member_id BIGINT PRIMARY KEY,
    points    BIGINT NOT NULL
);
CREATE TABLE redemptions (
    id        BIGSERIAL PRIMARY KEY,
    member_id BIGINT NOT NULL,
    points    BIGINT NOT NULL,
    bonus     BIGINT NOT NULL
);
