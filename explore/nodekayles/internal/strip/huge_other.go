//go:build !linux

package strip

// hugePages is Linux's only.
func hugePages([][2]uint64) {}
