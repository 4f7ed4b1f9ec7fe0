CREATE TABLE `credit_lines` (
  `id`           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `customer_id`  BIGINT UNSIGNED NOT NULL,
  `credit_limit` BIGINT NOT NULL,
  `drawn`        BIGINT NOT NULL DEFAULT 0,
  `opened_at`    DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  KEY `idx_credit_lines_customer` (`customer_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `drawdowns` (
  `id`             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `credit_line_id` BIGINT UNSIGNED NOT NULL,
  `amount`         BIGINT NOT NULL,
  `created_at`     DATETIME NOT NULL,
  PRIMARY KEY (`id`),
  CONSTRAINT `fk_drawdowns_line` FOREIGN KEY (`credit_line_id`) REFERENCES `credit_lines` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
