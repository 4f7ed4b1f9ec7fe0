module example.com/conc

go 1.22
