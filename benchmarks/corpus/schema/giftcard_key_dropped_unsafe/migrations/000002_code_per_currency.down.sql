ALTER TABLE gift_cards DROP CONSTRAINT gift_cards_code_currency_key;
ALTER TABLE gift_cards ADD CONSTRAINT gift_cards_code_key UNIQUE (code);
