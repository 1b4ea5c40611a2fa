package survey

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// reportCSV, the reference WriteCSV is checked against, writes one row per variant: its index, one column per parameter,
// its status and error, and one column per scalar result, named by its
// path in the JSON (period.period, p_positions.count, outcome), in
// alphabetical order.
// Lists of results (values, tables) are left to the JSON form.
func reportCSV(r *Report, w io.Writer) error {
	var cols []string
	seen := map[string]bool{}
	flat := make([]map[string]string, len(r.Variants))
	for i, v := range r.Variants {
		flat[i] = map[string]string{}
		if len(v.Results) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(v.Results))
		dec.UseNumber()
		var x any
		if err := dec.Decode(&x); err != nil {
			return fmt.Errorf("survey: variant %d: %w", v.Index, err)
		}
		flatten("", x, func(path, val string) {
			if !seen[path] {
				seen[path] = true
				cols = append(cols, path)
			}
			flat[i][path] = val
		})
	}
	sort.Strings(cols)
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	head := append([]string{"index"}, r.Params...)
	head = append(head, "status", "error")
	head = append(head, cols...)
	if err := cw.Write(head); err != nil {
		return err
	}
	for i, v := range r.Variants {
		rec := []string{fmt.Sprint(v.Index)}
		vals := map[string]any{}
		for _, p := range v.Params {
			vals[p.Key] = p.Value
		}
		for _, k := range r.Params {
			rec = append(rec, compact(vals[k]))
		}
		rec = append(rec, v.Status, v.Error)
		for _, c := range cols {
			rec = append(rec, flat[i][c])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
