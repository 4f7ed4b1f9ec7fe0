CREATE TABLE counters (name TEXT PRIMARY KEY, remaining TEXT NOT NULL);
