CREATE TABLE wallets (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL,
    floor   BIGINT NOT NULL
);

CREATE TABLE page_views (
    id    BIGINT PRIMARY KEY,
    views BIGINT NOT NULL
);
