package errident

import "fmt"

func fmtWrap(err error) error { return fmt.Errorf("withdraw: %w", err) }
