module example.com/sqlitemax

go 1.22
