CREATE TABLE owners (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE pets (
    id       INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL,
    name     TEXT NOT NULL
);
