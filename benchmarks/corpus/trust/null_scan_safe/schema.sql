-- balance is NULL until the card is activated.
CREATE TABLE giftcards (
    code    VARCHAR(32) PRIMARY KEY,
    balance BIGINT
);
