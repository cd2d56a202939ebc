// Package conformance holds the generic cases every adapter must pass: the
// rules of the adapter contract (DESIGN §3) checked through the contract
// alone, so one suite runs against every backend. An adapter's own test
// calls Run with a function that builds a fresh Target (usually an emulator)
// per case.
//
// It imports the contract and the standard library's testing package only,
// never a concrete adapter or emulator.
package conformance
