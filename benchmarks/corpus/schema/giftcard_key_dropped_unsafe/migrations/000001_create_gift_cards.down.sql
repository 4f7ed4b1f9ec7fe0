DROP TABLE gift_card_redemptions;
DROP TABLE gift_cards;
