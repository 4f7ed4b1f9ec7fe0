CREATE TABLE owners (
    id   BIGINT PRIMARY KEY,
    name VARCHAR(100) NOT NULL
) ENGINE=InnoDB;

CREATE TABLE pets (
    id       BIGINT PRIMARY KEY,
    owner_id BIGINT,
    name     VARCHAR(100) NOT NULL
) ENGINE=InnoDB;
