package registry_test

import (
	"cmp"
	"fmt"

	"github.com/nimbook/nimbook/explore/registry"
)

type rule struct {
	name  string
	order int
}

func Example() {
	var rules registry.Registry[rule]
	for _, r := range []rule{{"octal", 2}, {"nim", 1}, {"kayles", 2}} {
		if !rules.Add(r.name, r) {
			panic("registered twice: " + r.name)
		}
	}
	fmt.Println(rules.Keys(func(a, b rule) int { return cmp.Compare(a.order, b.order) }))
	// Output: [nim kayles octal]
}
