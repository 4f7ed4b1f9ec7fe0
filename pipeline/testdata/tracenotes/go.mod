module example.com/tracenotes

go 1.22
