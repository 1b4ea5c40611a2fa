package wythoff

// SetTileSize sets the height (lines) and width (cells) of the tiles
// tables are filled by, so that a small table has many tiles; it returns
// the function that restores them.
func SetTileSize(height, width int) (restore func()) {
	oldH, oldW := tileHeight, tileWidth
	tileHeight, tileWidth = height, width
	return func() { tileHeight, tileWidth = oldH, oldW }
}

// TableBytesOptions is TableBytes for opts.Workers workers.
func TableBytesOptions(rows, cols int, opts Options) int64 {
	return newLayout(rows, cols, opts.Workers).bytes()
}
