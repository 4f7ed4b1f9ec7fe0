CREATE TABLE room_days (
  room_id BIGINT NOT NULL,
  day BIGINT NOT NULL,
  booked BIGINT NOT NULL,
  capacity BIGINT NOT NULL,
  PRIMARY KEY (room_id, day)
);
