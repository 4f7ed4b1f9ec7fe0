// Package pipeline runs dbverify end to end: it loads the packages, finds
// the entry points, translates each into the IR, lowers it into the row
// model of each constraint and runs the CEGAR loop, on a pool of workers
// with one solver each. It returns a report.Report; it never prints
// (package cmd/dbverify does).
//
// The stages of Run, and the packages that do the work:
//
//	Config
//	  │ validate: engine, dialect, a constraint given
//	  ▼
//	load ─────── schema (sqlparse), packages and SSA, dialect (frontend.Load),
//	  │          constraints, --assume facts, //dbverify:ignore directives
//	  ▼
//	plan ─────── entry points and the coverage of the tables' writers;
//	  │          one ir.Program per entry (frontend Translate);
//	  │          jobs = entry × constraint it may break
//	  ▼
//	findings ─── with --concurrent, over the jobs' programs: tx-escape
//	  │          (txescape.go, a must-analysis), lost-update
//	  │          (lostupdate.go: paths executed symbolically, one smt
//	  │          query per read-write pair for two requests) and
//	  │          check-then-insert (checkinsert.go: the same paths, per
//	  │          read-INSERT pair)
//	  ▼
//	runJobs ──── a worker per CPU, each with one smt.Solver, Reset between jobs
//	  │  verify(job):
//	  │    dbmodel.Lower: the program over row symbols, for one constraint
//	  │    ir.PropagateCopies
//	  │    vacuity: is any initial state allowed? (smt)
//	  │    result cache, or the engine: refine.CheckLBE | Check | CheckPaths
//	  │      (abstraction → boolprog → vcgen; report.BuildTrace for UNSAFE)
//	  ▼
//	report.Report
//
// After the workers, the results are checked for vacuity (a constraint no
// state satisfies is a usage error), the //dbverify:ignore directives are
// applied, and the statistics are totalled.
//
// Cancelling Run's context interrupts the checks under way
// (smt.Solver.Interrupt) and leaves every job not decided by then UNKNOWN
// with reason refine.ReasonCancelled.
package pipeline
