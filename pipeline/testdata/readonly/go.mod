module example.com/readonly

go 1.22
