-- sell n seats
UPDATE tickets
   SET sold = sold + ?
 WHERE event_id = ?
