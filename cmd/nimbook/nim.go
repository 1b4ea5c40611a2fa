package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/nimbook/nimbook/explore/nimber"
)

const nimUsage = "nimbook nim add A B... | mul A B... | inv A | sqrt A | pow A E (decimal 64-bit nimbers)"

// runNim is the nimber calculator of SPEC.md: nimbook nim mul 2 3 prints 1.
func runNim(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usagef("nim needs an operation: %s", nimUsage)
	}
	op, rest := args[0], args[1:]
	nums := make([]uint64, len(rest))
	for i, a := range rest {
		v, err := strconv.ParseUint(a, 10, 64)
		if err != nil {
			return usagef("nim %s: %q is not a nimber (a whole number from 0 to 18446744073709551615)", op, a)
		}
		nums[i] = v
	}
	want := func(n int) error {
		if len(nums) != n {
			return usagef("nim %s takes %d argument(s), got %d: %s", op, n, len(nums), nimUsage)
		}
		return nil
	}
	var out uint64
	switch op {
	case "add", nimber.OpSum:
		if len(nums) == 0 {
			return usagef("nim add needs at least one nimber")
		}
		out = nimber.Sum(nums...)
	case "mul", nimber.OpProduct:
		if len(nums) == 0 {
			return usagef("nim mul needs at least one nimber")
		}
		out = nimber.Product(nums...)
	case "inv":
		if err := want(1); err != nil {
			return err
		}
		v, err := nimber.Inv(nums[0])
		if err != nil {
			return fmt.Errorf("nim inv 0: 0 has no nim-inverse (every other nimber has one)")
		}
		out = v
	case "sqrt":
		if err := want(1); err != nil {
			return err
		}
		out = nimber.Sqrt(nums[0])
	case "pow":
		if err := want(2); err != nil {
			return err
		}
		out = nimber.Pow(nums[0], nums[1])
	default:
		return usagef("unknown nim operation %q: %s", op, nimUsage)
	}
	_, err := fmt.Fprintln(stdout, out)
	return err
}
