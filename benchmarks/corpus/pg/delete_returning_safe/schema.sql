CREATE TABLE stock (
  item_id  BIGINT PRIMARY KEY,
  on_hand  BIGINT NOT NULL,
  capacity BIGINT NOT NULL
);
CREATE TABLE reservations (
  id      BIGSERIAL PRIMARY KEY,
  item_id BIGINT NOT NULL,
  qty     BIGINT NOT NULL CHECK (qty > 0)
);
