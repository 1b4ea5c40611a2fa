package main

// Game families beyond the built-in ones register themselves with package
// family when their package is linked in, as database/sql drivers do.
import _ "github.com/nimbook/nimbook/explore/stargame"
