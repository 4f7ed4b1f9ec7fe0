module example.com/updateignore

go 1.22
