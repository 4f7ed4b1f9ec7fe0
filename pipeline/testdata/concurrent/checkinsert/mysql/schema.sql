-- No key on (user_id, coupon_id): two redemptions of one coupon by one
-- user are two rows.
CREATE TABLE coupon_redemptions (
    id        BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id   BIGINT NOT NULL,
    coupon_id BIGINT NOT NULL,
    amount    BIGINT NOT NULL
);
