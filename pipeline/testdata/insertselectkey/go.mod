module example.com/insertselectkey

go 1.26
