module example.com/ctewrite

go 1.26
