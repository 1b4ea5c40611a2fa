// Package e2e holds what the end-to-end tests of the nimbook command share:
// the command built once per test binary, the Jupyter home it is installed
// in, and measures of a child process (peak memory, processor time) that
// hold on a busy machine.
//
// The end-to-end tests live in packages of their own below this one
// (hostile, kernel, browser, progress, slurm) as well as in cmd/nimbook: go test gives
// every package its own time limit and runs packages side by side, so the
// slow ones (a browser, a Slurm cluster, a few hundred hostile inputs) do
// not add up to one package's ten minutes when the suite runs several
// times on a loaded machine.
//
// Conventions: a test that needs a tool that is missing skips, unless
// NIMBOOK_E2E=1 (CI), which makes that a failure. Waits on a child are
// bounded by HangGuard, which only guards against a hang; what a test
// measures is processor time or an event, never the clock.
package e2e
