-- seats still free for an event
SELECT capacity - sold
  FROM tickets
 WHERE event_id = ?
