package job

import (
	"encoding/json"
	"reflect"
	"testing"
)

// GameJSON writes the game as a job file gives it: parsed back as a job
// file, it is the same game, defaults included.
func TestGameJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"octal", `game: {octal: {code: "0.07", upto: 2000}}` + "\n  show: [period]", `{"octal":{"code":"0.07","upto":2000}}`},
		{"octal defaults", `game: {octal: {code: ".77"}}` + "\n  show: [values]", `{"octal":{"code":".77","upto":100}}`},
		{"hex misere", `game: {hex: {code: "0.f", play: misere, position: [3, 4]}}` + "\n  show: [outcome]", `{"hex":{"code":"0.f","play":"misere","position":[3,4],"upto":100}}`},
		{"nim", `game: {nim: {heaps: [1, 3, 5, 7], max-take: 3}}` + "\n  show: [outcome]", `{"nim":{"heaps":[1,3,5,7],"max-take":3,"upto":20}}`},
		{"subtraction", `game: {subtraction: {set: [1, 3, 4], upto: 50}}` + "\n  show: [values]", `{"subtraction":{"set":[1,3,4],"upto":50}}`},
		{"all-but", `game: {subtraction: {all-but: [2]}}` + "\n  show: [values]", `{"subtraction":{"all-but":[2],"upto":100}}`},
		{"wythoff", `game: {wythoff: {size: [8, 9]}}` + "\n  show: [table]", `{"wythoff":{"size":[8,9]}}`},
		{"coins", `game: {coins: {rule: at-most, r: 7, n: 24}}` + "\n  show: [weights]", `{"coins":{"first":1,"n":24,"r":7,"rule":"at-most"}}`},
		{"coins below", `game: {coins: {rule: at-most, r: 4, below: 2^16}}` + "\n  show: [values]", `{"coins":{"below":65536,"first":1,"r":4,"rule":"at-most"}}`},
		{"ruler", `game: {coins: {rule: ruler, n: 8}}` + "\n  show: [values]", `{"coins":{"first":1,"n":8,"rule":"ruler"}}`},
		{"product", `game: {product: {factors: [{rule: at-most, r: 1}, {rule: exactly, r: 2, first: 0}], size: [7, 7]}}` + "\n  show: [table]",
			`{"product":{"factors":[{"first":1,"r":1,"rule":"at-most"},{"first":0,"r":2,"rule":"exactly"}],"size":[7,7]}}`},
		{"nimbers", `nimbers: {op: sum, size: 8}` + "\n  show: [table]", `{"nimbers":{"op":"sum","size":8}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := Parse("a.yaml", []byte("sections:\n- "+tt.yaml+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			s := j.Sections[0]
			b, err := json.Marshal(s.GameJSON())
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("GameJSON = %s, want %s", b, tt.want)
			}
			// JSON is YAML: the game reads back as the same section.
			key := "game"
			if s.Nimbers() != nil {
				key, b = "nimbers", []byte(`{"op":"sum","size":8}`)
			}
			back, err := Parse("b.yaml", []byte("sections:\n- "+key+": "+string(b)+"\n  show: ["+s.Show[0]+"]\n"))
			if err != nil {
				t.Fatalf("%s does not parse back: %v", b, err)
			}
			got := back.Sections[0]
			got.Line, s.Line = 0, 0
			if !reflect.DeepEqual(got, s) {
				t.Errorf("read back %+v, want %+v", got, s)
			}
		})
	}
	var none *Section
	if none.GameJSON() != nil || (&Section{Family: "game"}).GameJSON() != nil {
		t.Error("a section without a job family has a game")
	}
}

// SPEC.md: a found period carries every key, "preperiod": 0 included; no
// period carries proven and checked_to only.
func TestPeriodJSON(t *testing.T) {
	tests := []struct {
		p    Period
		want string
	}{
		{Period{Proven: true, Period: 7, CheckedTo: 11}, `{"proven":true,"preperiod":0,"period":7,"checked_to":11}`},
		{Period{Proven: true, Preperiod: 71, Period: 12, CheckedTo: 167, Method: "Guy–Smith"}, `{"proven":true,"preperiod":71,"period":12,"checked_to":167,"method":"Guy–Smith"}`},
		{Period{Period: 3, CheckedTo: 30, Method: MethodObserved}, `{"proven":false,"preperiod":0,"period":3,"checked_to":30,"method":"observed"}`},
		{Period{CheckedTo: 500}, `{"proven":false,"checked_to":500}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(&tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%+v: %s, want %s", tt.p, b, tt.want)
		}
	}
}
