package survey

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// A Report holds every variant's results at once: 100 000 variants took
// 320 MiB to write as JSON. WriteJSON and WriteCSV write the same bytes as
// NewReport(s, rows, lang).JSON and .CSV, reading the rows from the
// database one at a time: what they hold beside the survey is one
// variant's results (and for CSV the names of the columns).

// eachRow calls fn with the stored rows in index order, one at a time.
func (st *Store) eachRow(fn func(Row) error) error {
	rs, err := st.db.Query(`SELECT idx, game, params, status, error, COALESCE(results, ''), seconds, version FROM variants ORDER BY idx`)
	if err != nil {
		return dbError(st.path, err)
	}
	defer rs.Close()
	for rs.Next() {
		var r Row
		if err := rs.Scan(&r.Index, &r.Game, &r.Params, &r.Status, &r.Error, &r.Results, &r.Seconds, &r.Version); err != nil {
			return dbError(st.path, err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rs.Err(); err != nil {
		return dbError(st.path, err)
	}
	return nil
}

// ResultBytes returns the bytes of the results and errors the database
// holds, for the estimate of a report.
func (st *Store) ResultBytes() (int64, error) {
	var n int64
	err := st.db.QueryRow(`SELECT COALESCE(SUM(LENGTH(COALESCE(results, '')) + LENGTH(error)), 0) FROM variants`).Scan(&n)
	if err != nil {
		return 0, dbError(st.path, err)
	}
	return n, nil
}

// eachVariant calls fn with every variant of s in order and its stored
// row (nil for a pending one), reading the rows one at a time.
func eachVariant(s *Survey, st *Store, fn func(v *Variant, r *Row) error) error {
	next := 0
	pending := func(upto int) error {
		for ; next < len(s.Variants) && s.Variants[next].Index < upto; next++ {
			if err := fn(s.Variants[next], nil); err != nil {
				return err
			}
		}
		return nil
	}
	err := st.eachRow(func(r Row) error {
		if err := pending(r.Index); err != nil {
			return err
		}
		if next < len(s.Variants) && s.Variants[next].Index == r.Index {
			next++
			return fn(s.Variants[next-1], &r)
		}
		return nil // not a variant of s
	})
	if err != nil {
		return err
	}
	return pending(int(^uint(0) >> 1))
}

// variantResult is the variant's entry of a report, as NewReport makes it.
func variantResult(v *Variant, r *Row) VariantResult {
	g, _ := Canonical(v.Game())
	vr := VariantResult{Index: v.Index, Params: v.Params, Game: g, Status: StatusPending}
	if r != nil {
		vr.Status, vr.Error, vr.Seconds, vr.Version = r.Status, r.Error, r.Seconds, r.Version
		if r.Status == StatusDone {
			vr.Results = json.RawMessage(r.Results)
		}
	}
	return vr
}

// WriteJSON writes the JSON report of s over the database st, as
// Report.JSON does, one variant at a time.
func WriteJSON(w io.Writer, s *Survey, st *Store) error {
	done := 0
	if err := eachVariant(s, st, func(_ *Variant, r *Row) error {
		if r != nil && r.Status == StatusDone {
			done++
		}
		return nil
	}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	title, err := jsonText(s.Title)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "{\n  \"title\": %s,\n  \"count\": %d,\n  \"done\": %d,\n  \"variants\": [", title, len(s.Variants), done)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	n := 0
	err = eachVariant(s, st, func(v *Variant, r *Row) error {
		vr := variantResult(v, r)
		ann, err := Annotate(s.Family, &vr)
		if err != nil {
			return err
		}
		b.Reset()
		if err := enc.Encode(jsonVariant{Game: vr.Game, Status: vr.Status, Error: vr.Error, Results: vr.Results, Annotations: ann}); err != nil {
			return fmt.Errorf("survey: %w", err)
		}
		if n > 0 {
			bw.WriteByte(',')
		}
		n++
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		return nil
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// jsonText is s as a JSON string, HTML left unescaped.
func jsonText(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", fmt.Errorf("survey: %w", err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// WriteCSV writes the CSV report of s over the database st, as Report.CSV
// does: a first pass over the rows finds the columns, a second writes
// them.
func WriteCSV(w io.Writer, s *Survey, st *Store) error {
	var cols []string
	seen := map[string]bool{}
	err := eachVariant(s, st, func(v *Variant, r *Row) error {
		return flattenResults(s.Family, variantResult(v, r), func(path, _ string) {
			if !seen[path] {
				seen[path] = true
				cols = append(cols, path)
			}
		})
	})
	if err != nil {
		return err
	}
	sort.Strings(cols)
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	head := append([]string{"index"}, s.Params...)
	head = append(head, "status", "error")
	head = append(head, cols...)
	if err := cw.Write(head); err != nil {
		return err
	}
	flat := map[string]string{}
	err = eachVariant(s, st, func(v *Variant, r *Row) error {
		vr := variantResult(v, r)
		clear(flat)
		if err := flattenResults(s.Family, vr, func(path, val string) { flat[path] = val }); err != nil {
			return err
		}
		rec := []string{strconv.Itoa(vr.Index)}
		vals := map[string]any{}
		for _, p := range vr.Params {
			vals[p.Key] = p.Value
		}
		for _, k := range s.Params {
			rec = append(rec, compact(vals[k]))
		}
		rec = append(rec, vr.Status, vr.Error)
		for _, c := range cols {
			rec = append(rec, flat[c])
		}
		return cw.Write(rec)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// flattenResults calls f for every scalar of a variant's results and of
// its annotations (Annotation), as Report.CSV reads them.
func flattenResults(family string, v VariantResult, f func(path, val string)) error {
	if len(v.Results) == 0 {
		return nil
	}
	ann, err := Annotate(family, &v)
	if err != nil {
		return err
	}
	for _, raw := range []json.RawMessage{v.Results, ann} {
		if len(raw) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var x any
		if err := dec.Decode(&x); err != nil {
			return fmt.Errorf("survey: variant %d: %w", v.Index, err)
		}
		flatten("", x, f)
	}
	return nil
}
