package wythoff

// SetTileSide sets the side of the tiles tables are filled by, so that a
// small table has many tiles; it returns the function that restores it.
func SetTileSide(n int) (restore func()) {
	old := tileSide
	tileSide = n
	return func() { tileSide = old }
}
