CREATE TABLE orders (
    id         BIGINT PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    total      BIGINT NOT NULL,
    refundable TINYINT NOT NULL DEFAULT 1,
    CHECK (total >= 0)
);
CREATE TABLE credits (
    id       BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id BIGINT NOT NULL UNIQUE,
    user_id  BIGINT NOT NULL,
    amount   BIGINT NOT NULL
);
