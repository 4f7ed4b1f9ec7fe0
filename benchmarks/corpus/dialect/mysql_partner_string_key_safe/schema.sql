CREATE TABLE partner_wallets (
    id      BIGINT PRIMARY KEY,
    ext_id  VARCHAR(32) NOT NULL UNIQUE,
    balance BIGINT NOT NULL
);
