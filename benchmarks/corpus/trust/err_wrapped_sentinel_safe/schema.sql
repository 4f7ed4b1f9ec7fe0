CREATE TABLE points (member_id bigint PRIMARY KEY, balance bigint NOT NULL);
