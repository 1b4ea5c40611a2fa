package nbformat_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/nbformat"
)

func ExampleParseMarkdown() {
	src := "# Kayles\n\nIts values:\n\n```nimbook\noctal(\"0.77\").values(12)\n```\n"
	nb, err := nbformat.ParseMarkdown([]byte(src))
	if err != nil {
		panic(err)
	}
	for _, c := range nb.Cells {
		fmt.Printf("%s (line %d): %q\n", c.Type, c.Line, c.Source)
	}
	// Output:
	// markdown (line 0): "# Kayles\n\nIts values:"
	// code (line 6): "octal(\"0.77\").values(12)"
}
