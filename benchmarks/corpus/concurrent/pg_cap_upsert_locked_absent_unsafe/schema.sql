CREATE TABLE daily_spend (member_id BIGINT NOT NULL, day BIGINT NOT NULL, total BIGINT NOT NULL, PRIMARY KEY (member_id, day));
