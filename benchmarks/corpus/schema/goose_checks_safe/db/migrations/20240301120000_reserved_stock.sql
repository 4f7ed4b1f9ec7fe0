-- +goose Up
ALTER TABLE `inventory_items` ADD COLUMN `reserved` INT NOT NULL DEFAULT 0 AFTER `stock`;
ALTER TABLE `inventory_items` ADD CONSTRAINT `reserved_within_stock` CHECK (`reserved` <= `stock`);

-- +goose Down
ALTER TABLE `inventory_items` DROP CHECK `reserved_within_stock`;
ALTER TABLE `inventory_items` DROP CHECK `positive_stock`;
ALTER TABLE `inventory_items` DROP COLUMN `reserved`;
