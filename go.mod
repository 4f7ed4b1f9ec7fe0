module github.com/dbverify/dbverify

go 1.26.0

require (
	github.com/aclements/go-z3 v0.0.0-20220809013456-4675d5f90ca5
	github.com/pganalyze/pg_query_go/v6 v6.2.5
	github.com/urfave/cli/v2 v2.27.7
	github.com/xwb1989/sqlparser v0.0.0-20180606152119-120387863bf2
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
	google.golang.org/protobuf v1.33.0
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
