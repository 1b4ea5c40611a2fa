package nimber

// The byte tower, the reference the tests hold the log/exp arithmetic to.
var (
	MulTower = mulTower
	InvTower = invTower
)
