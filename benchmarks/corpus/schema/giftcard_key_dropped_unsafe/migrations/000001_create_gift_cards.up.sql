CREATE TABLE gift_cards (
    code      TEXT        NOT NULL,
    balance   BIGINT      NOT NULL,
    currency  CHAR(3)     NOT NULL DEFAULT 'EUR',
    issued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT gift_cards_code_key UNIQUE (code),
    CONSTRAINT gift_cards_balance_check CHECK (balance >= 0)
);

CREATE TABLE gift_card_redemptions (
    id          BIGSERIAL   PRIMARY KEY,
    code        TEXT        NOT NULL,
    amount      BIGINT      NOT NULL,
    order_id    BIGINT      NOT NULL,
    redeemed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
