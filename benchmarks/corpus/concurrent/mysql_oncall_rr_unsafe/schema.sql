CREATE TABLE doctors (
    id       BIGINT PRIMARY KEY,
    shift_id BIGINT NOT NULL,
    on_call  INT NOT NULL
) ENGINE=InnoDB;
