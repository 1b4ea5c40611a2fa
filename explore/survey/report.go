package survey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// Report is a survey's results as a database holds them, every variant in
// survey order (pending ones included): the typed result its renderings
// (JSON, CSV, and the documents of reports/) share.
type Report struct {
	Title  string
	Text   string
	Lang   string
	Family string
	// Params names the parameters, Varying those that take several values.
	Params  []string
	Varying []string
	Show    []string
	// Count is the number of variants, Done those computed.
	Count, Done int
	Variants    []VariantResult
}

// VariantResult is one variant of a Report.
type VariantResult struct {
	Index  int
	Params []Param
	// Game is the canonical JSON of the variant's game,
	// e.g. {"octal":{"code":"0.07","upto":2000}}.
	Game json.RawMessage
	// Status is done, refused, error or pending.
	Status string
	// Error is the reason of a refusal or an error.
	Error string
	// Results is the canonical JSON of the job section's results, when
	// done; Decode gives them typed.
	Results json.RawMessage
	Seconds float64
	Version string
}

// Decode returns the variant's results as a job section's, nil when the
// variant is not done.
func (v *VariantResult) Decode() (*job.Results, error) {
	if v.Status != StatusDone || len(v.Results) == 0 {
		return nil, nil
	}
	var r job.Results
	if err := json.Unmarshal(v.Results, &r); err != nil {
		return nil, fmt.Errorf("survey: variant %d: %w", v.Index, err)
	}
	return &r, nil
}

// NewReport puts the stored rows of a database in the order of s; lang,
// when not empty, overrides the survey's.
func NewReport(s *Survey, rows []Row, lang string) *Report {
	r := &Report{Title: s.Title, Text: s.Text, Lang: s.Lang, Family: s.Family, Params: s.Params, Varying: s.Varying, Show: s.Show, Count: len(s.Variants)}
	if lang != "" {
		r.Lang = lang
	}
	byIndex := make(map[int]Row, len(rows))
	for _, row := range rows {
		byIndex[row.Index] = row
	}
	for _, v := range s.Variants {
		g, _ := Canonical(v.Game())
		vr := VariantResult{Index: v.Index, Params: v.Params, Game: g, Status: StatusPending}
		if row, ok := byIndex[v.Index]; ok {
			vr.Status, vr.Error, vr.Seconds, vr.Version = row.Status, row.Error, row.Seconds, row.Version
			if row.Status == StatusDone {
				vr.Results = json.RawMessage(row.Results)
				r.Done++
			}
		}
		r.Variants = append(r.Variants, vr)
	}
	return r
}

// jsonVariant is a variant in the JSON report (SPEC.md), as Report.JSON
// and WriteJSON write it.
type jsonVariant struct {
	Game        json.RawMessage `json:"game"`
	Status      string          `json:"status"`
	Error       string          `json:"error,omitempty"`
	Results     json.RawMessage `json:"results,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// JSON writes the report in SPEC.md's form, indented by two spaces: the
// same bytes for the same results, whichever machines computed them.
func (r *Report) JSON(w io.Writer) error {
	doc := struct {
		Title    string        `json:"title"`
		Count    int           `json:"count"`
		Done     int           `json:"done"`
		Variants []jsonVariant `json:"variants"`
	}{Title: r.Title, Count: r.Count, Done: r.Done, Variants: []jsonVariant{}}
	for i := range r.Variants {
		v := &r.Variants[i]
		ann, err := Annotate(r.Family, v)
		if err != nil {
			return err
		}
		doc.Variants = append(doc.Variants, jsonVariant{Game: v.Game, Status: v.Status, Error: v.Error, Results: v.Results, Annotations: ann})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("survey: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// flatten calls f for every scalar in x (objects walked in key order,
// lists skipped), with its dotted path.
func flatten(path string, x any, f func(path, val string)) {
	switch t := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(p, t[k], f)
		}
	case []any:
	case nil:
	case json.Number:
		f(path, t.String())
	case bool:
		f(path, fmt.Sprint(t))
	case string:
		f(path, strings.TrimSpace(t))
	}
}
