CREATE TABLE stocks (
    id bigint NOT NULL PRIMARY KEY,
    quantity int NOT NULL,
    reserved_quantity int NOT NULL
);
