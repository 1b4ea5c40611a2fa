package plots_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/plots"
)

// The weight distribution of the extended Golay code (seed 000) as bars.
func ExampleBars() {
	weights := []uint64{1, 0, 0, 0, 0, 0, 0, 0, 759, 0, 0, 0, 2576, 0, 0, 0, 759, 0, 0, 0, 0, 0, 0, 0, 1}
	p, err := plots.Bars(weights, plots.Labels{Title: "Golay code", X: "heads", Y: "P-positions"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var svg bytes.Buffer
	if err := plots.SVG(&svg, p, plots.Width, plots.Height); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(svg.String(), ">2576<"))
	// Output: true
}
