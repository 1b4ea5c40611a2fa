package nimber_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/nimber"
)

func ExampleMul() {
	fmt.Println(nimber.Mul(4, 4), nimber.Mul(4, 2), nimber.Mul(2, 3))
	// Output: 6 8 1
}

func ExampleInv() {
	inv, _ := nimber.Inv(2)
	fmt.Println(inv)
	_, err := nimber.Inv(0)
	fmt.Println(err)
	// Output:
	// 3
	// nimber: 0 has no inverse
}

func ExampleSqrt() {
	r := nimber.Sqrt(2)
	fmt.Println(r, nimber.Mul(r, r))
	// Output: 3 2
}

func ExampleMulTable() {
	t, _ := nimber.MulTable(4)
	for _, row := range t {
		fmt.Println(row)
	}
	// Output:
	// [0 0 0 0]
	// [0 1 2 3]
	// [0 2 3 1]
	// [0 3 1 2]
}
