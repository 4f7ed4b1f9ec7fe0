module example.com/insertselect

go 1.26
