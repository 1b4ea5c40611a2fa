package survey

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// Findings are what a survey's documents name besides the table: the
// variants by status, those that stand out (the longest period and
// preperiod, the periods not proven within the values computed) and the
// groups of variants whose value sequences agree. Variants are named by
// their position in Report.Variants (their survey index).
type Findings struct {
	// Results holds the decoded results of every variant, nil for those
	// not done.
	Results []*job.Results
	// Counts by status.
	Done, Refused, Errors, Pending int

	// WithPeriod counts the done variants with a period result, Proven
	// those whose period is proven; NotProven lists the others.
	WithPeriod, Proven int
	NotProven          []int
	// MaxPeriod and MaxPreperiod are the largest proven ones (0 when no
	// period is proven), reached by the variants listed.
	MaxPeriod, MaxPreperiod         int
	LongestPeriod, LongestPreperiod []int

	// Compared is how many first values were compared (0 when the
	// survey shows no values); Same lists the groups of two variants or
	// more with equal first values, each in survey order, the largest
	// groups first (ties in the order of their first variant).
	Compared int
	Same     [][]int
}

// NewFindings decodes the results of r and finds what stands out.
// compare is how many first values decide that two variants have the
// same values; 0 compares them all (sequences of different lengths then
// differ).
func NewFindings(r *Report, compare int) (*Findings, error) {
	f := &Findings{Results: make([]*job.Results, len(r.Variants))}
	groups := map[string][]int{}
	var keys []string
	for i := range r.Variants {
		v := &r.Variants[i]
		switch v.Status {
		case StatusDone:
			f.Done++
		case StatusRefused:
			f.Refused++
		case StatusError:
			f.Errors++
		default:
			f.Pending++
		}
		res, err := v.Decode()
		if err != nil {
			return nil, err
		}
		f.Results[i] = res
		if res == nil {
			continue
		}
		if p := res.Period; p != nil {
			f.WithPeriod++
			if !p.Proven {
				f.NotProven = append(f.NotProven, i)
			} else {
				f.Proven++
				f.MaxPeriod, f.LongestPeriod = longest(f.MaxPeriod, f.LongestPeriod, p.Period, i)
				f.MaxPreperiod, f.LongestPreperiod = longest(f.MaxPreperiod, f.LongestPreperiod, p.Preperiod, i)
			}
		}
		if res.Values != nil {
			vals := res.Values
			if compare > 0 && len(vals) > compare {
				vals = vals[:compare]
			}
			f.Compared = max(f.Compared, len(vals))
			k := key(vals)
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], i)
		}
	}
	for _, k := range keys {
		if g := groups[k]; len(g) > 1 {
			f.Same = append(f.Same, g)
		}
	}
	// The largest groups first: they say most about the family.
	slices.SortStableFunc(f.Same, func(a, b []int) int { return len(b) - len(a) })
	return f, nil
}

// longest keeps the variants reaching the largest x; a proven period of
// length 0 names nothing.
func longest(best int, who []int, x, i int) (int, []int) {
	switch {
	case x > best:
		return x, []int{i}
	case x == best && x > 0:
		return best, append(who, i)
	}
	return best, who
}

// key writes a value sequence as a map key.
func key(vals []uint64) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(vals)))
	for _, v := range vals {
		b.WriteByte(',')
		b.WriteString(strconv.FormatUint(v, 10))
	}
	return b.String()
}

// VaryingParams returns the parameters of v that vary across the survey, in
// the survey's order: what tells the variant from the others.
func (r *Report) VaryingParams(v *VariantResult) []Param {
	var out []Param
	for _, p := range v.Params {
		if slices.Contains(r.Varying, p.Key) {
			out = append(out, p)
		}
	}
	return out
}

// Fixed returns the parameters every variant shares, with their value,
// in the survey's order.
func (r *Report) Fixed() []Param {
	if len(r.Variants) == 0 {
		return nil
	}
	var out []Param
	for _, p := range r.Variants[0].Params {
		if !slices.Contains(r.Varying, p.Key) {
			out = append(out, p)
		}
	}
	return out
}

// Compact writes a parameter value on one line, as the CSV form does:
// 0.07, 3, [1,3,4].
func Compact(v any) string { return compact(v) }
