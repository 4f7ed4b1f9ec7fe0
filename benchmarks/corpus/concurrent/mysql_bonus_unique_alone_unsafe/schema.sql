CREATE TABLE users (
    id          BIGINT PRIMARY KEY,
    bonus_total BIGINT NOT NULL
) ENGINE=InnoDB;

CREATE TABLE bonus_claims (
    id      BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id BIGINT NOT NULL UNIQUE,
    amount  BIGINT NOT NULL
) ENGINE=InnoDB;
