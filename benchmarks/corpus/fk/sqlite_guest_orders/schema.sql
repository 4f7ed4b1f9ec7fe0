CREATE TABLE customers (
    id   INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL
);

CREATE TABLE orders (
    id          INTEGER PRIMARY KEY NOT NULL,
    customer_id INTEGER,
    total       INTEGER NOT NULL
);
