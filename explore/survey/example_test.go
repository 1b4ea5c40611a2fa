package survey_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/survey"
)

func ExampleParse() {
	src := `title: Octal games with two digits
survey:
  octal: {digits: 2, upto: 2000}
show: [period, values]
`
	s, err := survey.Parse("octal.yaml", []byte(src), survey.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Variants), "variants varying", s.Varying)
	for _, i := range []int{0, 6, 7, 62} {
		fmt.Println(i, s.Label(s.Variants[i]))
	}
	// Output:
	// 63 variants varying [code]
	// 0 octal code=0.1
	// 6 octal code=0.7
	// 7 octal code=0.01
	// 62 octal code=0.77
}

func ExampleParse_error() {
	src := "survey:\n  coins: {rule: at-most, r: \"0..9\", n: 24}\nshow: [weights]\n"
	_, err := survey.Parse("coins.yaml", []byte(src), survey.Options{})
	fmt.Println(err)
	// Output:
	// coins.yaml:2: survey.coins.r: 0 is out of range: the number of coins turned must be from 1 to 64
}
