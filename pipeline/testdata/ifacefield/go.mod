module example.com/ifacefield

go 1.22
