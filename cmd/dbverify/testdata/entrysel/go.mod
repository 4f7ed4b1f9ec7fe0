module example.com/entrysel

go 1.26
