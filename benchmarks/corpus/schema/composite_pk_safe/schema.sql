CREATE TABLE warehouses (
    id   BIGSERIAL PRIMARY KEY,
    code TEXT      NOT NULL
);

CREATE TABLE stock_levels (
    warehouse_id BIGINT      NOT NULL REFERENCES warehouses (id),
    sku          TEXT        NOT NULL,
    on_hand      INTEGER     NOT NULL DEFAULT 0,
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (warehouse_id, sku)
);

CREATE TABLE stock_movements (
    id           BIGSERIAL   PRIMARY KEY,
    warehouse_id BIGINT      NOT NULL,
    sku          TEXT        NOT NULL,
    delta        INTEGER     NOT NULL,
    order_id     BIGINT,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
