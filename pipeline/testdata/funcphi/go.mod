module example.com/funcphi

go 1.26
