package nimber

import "fmt"

// The operations of a nimber table, as job files (nimbers: {op: …}), the
// notebook (nimbers(op=…)) and the command line (nimbook nim add|mul)
// name them.
const (
	OpSum     = "sum"
	OpProduct = "product"
)

// ParseOp reads the name of a table's operation: sum (add, addition) or
// product (mul, multiplication); the error says what to write.
func ParseOp(name string) (string, error) {
	switch name {
	case OpSum, "add", "addition":
		return OpSum, nil
	case OpProduct, "mul", "multiplication":
		return OpProduct, nil
	}
	return "", fmt.Errorf("unknown operation %q; write %s or %s", name, OpSum, OpProduct)
}
