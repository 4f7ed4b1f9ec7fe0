CREATE TABLE users (
    id          BIGINT PRIMARY KEY,
    bonus_total BIGINT NOT NULL
);

CREATE TABLE bonus_claims (
    id      BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL UNIQUE,
    amount  BIGINT NOT NULL
);
