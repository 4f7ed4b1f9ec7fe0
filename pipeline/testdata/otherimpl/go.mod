module example.com/otherimpl

go 1.22
