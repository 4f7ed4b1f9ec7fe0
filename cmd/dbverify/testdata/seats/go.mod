module example.com/seats

go 1.26
