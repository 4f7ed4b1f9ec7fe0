-- Cards sold abroad reuse the printed code range: a code is now unique per
-- currency only.
ALTER TABLE gift_cards DROP CONSTRAINT gift_cards_code_key;
ALTER TABLE gift_cards ADD CONSTRAINT gift_cards_code_currency_key UNIQUE (code, currency);
