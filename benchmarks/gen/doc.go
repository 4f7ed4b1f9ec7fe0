// Package gen generates the synthetic Go programs of dbverify's scaling
// study. Each is a module "example.com/gen" with one package whose entry
// points keep the constraint accounts.balance >= 0:
//
//   - Sequential(N): N independent guarded updates in one function,
//     2^N paths through its guards;
//   - EntryPoints(M): M copies of a guarded withdrawal, M entry points;
//   - LoopNest(D): a guarded update inside D nested counting loops.
//
// Program.Write puts a program into a directory for dbverify to check.
package gen
