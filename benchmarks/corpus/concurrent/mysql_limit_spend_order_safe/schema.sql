CREATE TABLE cards (
    id           BIGINT PRIMARY KEY,
    spent        BIGINT NOT NULL,
    credit_limit BIGINT NOT NULL
) ENGINE=InnoDB;
