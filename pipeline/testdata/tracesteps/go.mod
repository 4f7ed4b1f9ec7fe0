module example.com/tracesteps

go 1.22
