module example.com/fedec

go 1.22

require github.com/shopspring/decimal v1.6.0
