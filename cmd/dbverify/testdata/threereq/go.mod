module example.com/threereq

go 1.26
