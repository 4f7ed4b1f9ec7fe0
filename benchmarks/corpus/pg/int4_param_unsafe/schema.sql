CREATE TABLE loyalty (member_id INT PRIMARY KEY, points BIGINT NOT NULL);
