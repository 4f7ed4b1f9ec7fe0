CREATE TABLE users (
    id BIGINT PRIMARY KEY
);

-- No key on (user_id, coupon_id): two redemptions of one coupon by one
-- user are two rows.
CREATE TABLE coupon_redemptions (
    id        BIGSERIAL PRIMARY KEY,
    user_id   BIGINT NOT NULL,
    coupon_id BIGINT NOT NULL,
    amount    BIGINT NOT NULL
);

-- The same with a UNIQUE key: the second INSERT fails.
CREATE TABLE coupon_claims (
    id        BIGSERIAL PRIMARY KEY,
    user_id   BIGINT NOT NULL,
    coupon_id BIGINT NOT NULL,
    amount    BIGINT NOT NULL,
    UNIQUE (user_id, coupon_id)
);
