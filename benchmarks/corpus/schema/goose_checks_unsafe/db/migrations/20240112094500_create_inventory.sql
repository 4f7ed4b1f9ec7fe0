-- +goose Up
-- +goose StatementBegin
CREATE TABLE `inventory_items` (
  `id`    BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `sku`   VARCHAR(64) NOT NULL,
  `name`  VARCHAR(255) NOT NULL,
  `stock` INT NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uq_inventory_sku` (`sku`),
  CONSTRAINT positive_stock CHECK (stock >= 0)
) ENGINE=InnoDB;
-- +goose StatementEnd

CREATE TABLE `reservations` (
  `id`         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `item_id`    BIGINT UNSIGNED NOT NULL,
  `order_id`   BIGINT UNSIGNED NOT NULL,
  `qty`        INT NOT NULL,
  `created_at` DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB;

-- +goose Down
DROP TABLE `reservations`;
DROP TABLE `inventory_items`;
