CREATE TABLE gift_cards (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL,
    spent   BIGINT NOT NULL,
    loaded  BIGINT NOT NULL
);
