// Package registry keeps what packages register at init under a key: heap
// rules (explore/heap), game families (explore/family), survey
// annotations (explore/survey). Registration is how nimbook opens itself
// to extension, as database/sql drivers are registered: a registry is safe
// for concurrent use, refuses a key twice, and lists its values in the
// order its owner gives.
package registry
