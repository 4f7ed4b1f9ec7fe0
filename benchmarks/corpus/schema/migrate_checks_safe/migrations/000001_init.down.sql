DROP TABLE IF EXISTS account_entries;
DROP TABLE IF EXISTS accounts;
