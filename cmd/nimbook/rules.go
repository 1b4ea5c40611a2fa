package main

// Heap rules beyond those of package heap register themselves when their
// package is linked in, as database/sql drivers do.
import _ "github.com/nimbook/nimbook/explore/starrule"
