module rlock.local/goprotocol

go 1.22
