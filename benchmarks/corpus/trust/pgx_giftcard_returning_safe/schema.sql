CREATE TABLE gift_cards (
    id      BIGINT PRIMARY KEY,
    balance BIGINT NOT NULL
);
