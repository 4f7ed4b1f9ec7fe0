module example.com/skiplocked

go 1.26
