// Package cref builds and runs the C programs that benchmarks of the
// engine are measured against: nimbook issue 13 asks each heavy
// computation to be at least as fast as a straightforward C program of the
// same algorithm, measured back to back with it. The programs live in the
// testdata/cref directory of the package they are a reference for; they
// are benchmark references only, never part of nimbook.
package cref
