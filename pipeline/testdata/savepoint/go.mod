module example.com/savepoint

go 1.22
