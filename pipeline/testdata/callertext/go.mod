module example.com/callertext

go 1.26
