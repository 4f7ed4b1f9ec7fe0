CREATE TABLE budgets (
    id        BIGINT PRIMARY KEY,
    total     BIGINT NOT NULL,
    spent     BIGINT NOT NULL DEFAULT 0,
    remaining BIGINT GENERATED ALWAYS AS (total - spent) STORED
);
