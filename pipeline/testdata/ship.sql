CREATE TABLE `inventory_items` (
  `id`       BIGINT NOT NULL AUTO_INCREMENT,
  `stock`    INT NOT NULL DEFAULT 0,
  `reserved` INT NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  CONSTRAINT positive_stock CHECK (`stock` >= 0),
  CONSTRAINT reserved_within_stock CHECK (`reserved` <= `stock`)
);
CREATE TABLE `wallets` (
  `id`      BIGINT NOT NULL AUTO_INCREMENT,
  `balance` BIGINT NOT NULL,
  PRIMARY KEY (`id`),
  CHECK (`balance` >= 0)
);
