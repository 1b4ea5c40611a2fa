package main

// Game families beyond the built-in ones register themselves with package
// family when their package is linked in, as database/sql drivers do.
import (
	_ "github.com/nimbook/nimbook/explore/stargame"

	_ "github.com/nimbook/nimbook/explore/chomp"      // chomp: {rows: […]}
	_ "github.com/nimbook/nimbook/explore/cram"       // cram: {board: [m, n]}
	_ "github.com/nimbook/nimbook/explore/nodekayles" // node-kayles: {graph: …}
)
