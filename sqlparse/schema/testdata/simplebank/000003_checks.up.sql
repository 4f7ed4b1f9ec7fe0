-- Row-level rules, some in Postgres-only syntax.
ALTER TABLE "accounts" ADD CONSTRAINT "balance_nonnegative" CHECK ("balance" >= 0::bigint);
ALTER TABLE "accounts" ADD CONSTRAINT "currency_known"
  CHECK (currency::text = ANY (ARRAY['USD'::character varying, 'EUR'::character varying, 'CAD'::character varying]::text[]));
ALTER TABLE "transfers" ADD CONSTRAINT "amount_positive" CHECK (amount > 0);
ALTER TABLE "transfers" ADD CONSTRAINT "distinct_accounts" CHECK (from_account_id IS DISTINCT FROM to_account_id);
ALTER TABLE "users" ADD CONSTRAINT "email_format" CHECK (email ~* '^[^@\s]+@[^@\s]+$');
ALTER TABLE "users" ADD CONSTRAINT "username_length" CHECK (char_length(username) BETWEEN 3 AND 32);
ALTER TABLE "users" ADD CONSTRAINT "email_not_username" CHECK ((username || '@') <> email);
