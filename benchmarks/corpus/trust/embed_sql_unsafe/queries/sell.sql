-- sell n seats plus one for the organiser
UPDATE tickets
   SET sold = sold + ? + 1
 WHERE event_id = ?
