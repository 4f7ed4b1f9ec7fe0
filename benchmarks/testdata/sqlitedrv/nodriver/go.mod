module example.com/nodriver

go 1.26.0
