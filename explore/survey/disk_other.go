//go:build !unix

package survey

// diskFull cannot tell here.
func diskFull(path string) bool { return false }
