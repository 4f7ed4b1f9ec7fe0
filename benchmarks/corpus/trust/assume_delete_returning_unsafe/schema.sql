CREATE TABLE carts (
  id bigint PRIMARY KEY,
  total bigint NOT NULL DEFAULT 0,
  spend_limit bigint NOT NULL
);
CREATE TABLE cart_items (
  id bigserial PRIMARY KEY,
  cart_id bigint NOT NULL,
  price bigint NOT NULL
);
