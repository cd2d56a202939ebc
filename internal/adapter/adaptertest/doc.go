// Package adaptertest holds what the adapters' own tests share: a clock
// that never waits, a log that keeps its lines, an endpoint that answers
// 503 and the reads a plan makes of an account. Each was written once per
// backend before; a fixture that only one backend's tests use stays in
// that backend's package.
//
// Only _test.go files import it. It imports internal/adapter and the
// standard library, never an adapter or an emulator, so every backend's
// tests may use it.
package adaptertest
