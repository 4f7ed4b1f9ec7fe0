module example.com/deadflag

go 1.22
