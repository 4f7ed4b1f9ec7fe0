CREATE TABLE owners (
    id   BIGINT PRIMARY KEY,
    name VARCHAR(100) NOT NULL
);

CREATE TABLE pets (
    id       BIGINT PRIMARY KEY,
    owner_id BIGINT NOT NULL,
    name     VARCHAR(100) NOT NULL
);
