package templates_test

import (
	"fmt"

	"github.com/nimbook/nimbook/templates"
)

func Example() {
	for _, lang := range templates.Langs() {
		s, err := templates.New(lang)
		if err != nil {
			panic(err)
		}
		txt, _ := s.Text("outcome", map[string]any{"Position": "(1,3,5,7)", "Outcome": "P", "Misere": false})
		fmt.Println(txt)
	}
	// Output:
	// (1,3,5,7) is a P-position (a win for the player who has just moved).
	// (1,3,5,7) est une position P (gagnante pour le joueur qui vient de jouer).
}
