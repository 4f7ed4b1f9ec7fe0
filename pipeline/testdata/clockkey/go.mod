module example.com/clockkey

go 1.26
