package notebook

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/job"
)

// genusResult is the genus of each heap as a list, heap n at index n:
// each genus prints as 1^{031} and has the fields normal (g), misere
// (γ0, γ1, …) and tame. It displays as the report's genus table.
func genusResult(sr *job.SectionResult) starlark.Value {
	items := make([]starlark.Value, len(sr.Results.Genus))
	for i, g := range sr.Results.Genus {
		ms := make([]starlark.Value, len(g.Misere))
		for k, v := range g.Misere {
			ms[k] = starlark.MakeInt(v)
		}
		items[i] = &recResult{kind: "genus", text: g.String(), fields: []field{
			{"normal", starlark.MakeInt(g.Normal)}, {"misere", starlark.NewList(ms)}, {"tame", starlark.Bool(g.Tame())}}}
	}
	return &seqResult{kind: "genus", sr: sr, items: starlark.NewList(items)}
}

// quotientResult is a misère quotient as a record of SPEC's keys; it
// displays as the report's presentation, pretending function and table.
func quotientResult(sr *job.SectionResult) starlark.Value {
	q := sr.Results.Quotient
	strs := func(xs []string) starlark.Value {
		out := make([]starlark.Value, len(xs))
		for i, x := range xs {
			out[i] = starlark.String(x)
		}
		return starlark.NewList(out)
	}
	gens := make([]starlark.Value, len(q.Generators))
	for i, g := range q.Generators {
		gens[i] = &recResult{kind: "generator", fields: []field{{"name", starlark.String(g.Name)}, {"heap", starlark.MakeInt(g.Heap)}}}
	}
	var period starlark.Value = starlark.None
	if p := q.Period; p != nil {
		period = &recResult{kind: "period", fields: []field{{"preperiod", starlark.MakeInt(p.Preperiod)}, {"period", starlark.MakeInt(p.Period)}}}
	}
	var table starlark.Value = starlark.None
	if q.Table != nil {
		table = listOf(q.Table, false)
	}
	kind := "wild"
	if q.Tame {
		kind = "tame " + q.TameName
	}
	return &recResult{kind: "quotient", sr: sr,
		text: fmt.Sprintf("quotient(heaps 1..%d: order %d, P-portion %d, %s)", q.Heaps, q.Order, q.PPortion, kind),
		fields: []field{
			{"heaps", starlark.MakeInt(q.Heaps)}, {"order", starlark.MakeInt(q.Order)}, {"p_portion", starlark.MakeInt(q.PPortion)},
			{"tame", starlark.Bool(q.Tame)}, {"tame_name", starlark.String(q.TameName)},
			{"generators", starlark.NewList(gens)}, {"relations", strs(q.Relations)},
			{"elements", strs(q.Elements)}, {"p", strs(q.P)}, {"pretending", strs(q.Pretending)},
			{"period", period}, {"table", table},
		}}
}
