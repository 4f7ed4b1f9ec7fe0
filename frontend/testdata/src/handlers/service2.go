package handlers

type Service2 struct{ q *Queries }

func (s *Service2) Debit(amt int64) error {
	if amt <= 0 {
		return nil
	}
	return s.q.Debit(amt)
}
