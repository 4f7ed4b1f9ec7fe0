CREATE TABLE loyalty (member_id INT PRIMARY KEY, points INT NOT NULL);
