SET statement_timeout = 0;
SELECT pg_catalog.set_config('search_path', '', false);

CREATE TABLE public.wallets (
    id integer NOT NULL,
    "ownerId" integer NOT NULL,
    balance numeric(12,2) DEFAULT 0 NOT NULL,
    CONSTRAINT wallets_balance_check CHECK ((balance >= (0)::numeric)),
    CONSTRAINT wallets_owner_check CHECK (("ownerId" > 0))
);

CREATE SEQUENCE public.wallets_id_seq AS integer START WITH 1;
ALTER TABLE ONLY public.wallets ALTER COLUMN id SET DEFAULT nextval('public.wallets_id_seq'::regclass);
ALTER TABLE ONLY public.wallets
    ADD CONSTRAINT wallets_pkey PRIMARY KEY (id);
CREATE UNIQUE INDEX wallets_lower_idx ON public.wallets USING btree (lower(("ownerId")::text));
CREATE UNIQUE INDEX wallets_partial ON public.wallets (balance) WHERE balance > 0;
