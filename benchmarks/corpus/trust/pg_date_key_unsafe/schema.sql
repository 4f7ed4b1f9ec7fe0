CREATE TABLE daily_usage (
    user_email TEXT NOT NULL,
    day        DATE NOT NULL,
    cnt        INTEGER NOT NULL,
    PRIMARY KEY (user_email, day)
);
