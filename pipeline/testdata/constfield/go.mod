module example.com/constfield

go 1.22
