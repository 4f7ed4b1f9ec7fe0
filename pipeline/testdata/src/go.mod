module example.com/pl

go 1.22
