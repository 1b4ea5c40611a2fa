package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/job"
)

// File is one exported file: a name (no directory) and its bytes.
type File struct {
	Name string
	Data []byte
}

// Exports turns r's results into files for other tools, named by section
// number (two digits, from 01) and analysis, so that the names are the
// same from run to run:
//
//   - sNN-values.csv: "n,value", n numbered as in the report (coins from
//     their first number); sNN-values.b.txt: the same as an OEIS b-file,
//     "n a(n)" lines after a # comment naming the section;
//   - sNN-table.csv: a 2-D table, a header row of column numbers and one
//     row per row number; a 3-D table as "i,j,k,value" lines;
//   - sNN-weights.csv ("heads,count"), sNN-distribution.csv
//     ("heads,value,count", non-zero counts only), sNN-row-periods.csv
//     ("row,period,start");
//   - sNN-rare.csv: "n,value,rare", every position the rare/common split
//     was found on, rare true or false;
//   - sNN-graph.dot: the game graph in Graphviz DOT.
//
// Analyses with nothing tabular (outcome, moves, code…) export nothing;
// the JSON form has them all.
func Exports(r *job.Report) ([]File, error) {
	if r == nil {
		return nil, errors.New("reports: nil report")
	}
	var out []File
	for i, sr := range r.Sections {
		if sr == nil {
			continue
		}
		pre := fmt.Sprintf("s%02d-", i+1)
		res := &sr.Results
		title := sr.Title
		if title == "" {
			title = fmt.Sprintf("section %d", i+1)
		}
		if len(res.Values) > 0 {
			first := firstOf(sr, 0)
			rows := [][]string{{"n", "value"}}
			var b bytes.Buffer
			fmt.Fprintf(&b, "# %s\n", strings.ReplaceAll(title, "\n", " "))
			for k, v := range res.Values {
				rows = append(rows, []string{itoa(first + k), utoa(v)})
				fmt.Fprintf(&b, "%d %d\n", first+k, v)
			}
			out = append(out, csvFile(pre+"values.csv", rows), File{pre + "values.b.txt", b.Bytes()})
		}
		if res.Table != nil {
			if g, ok := grid(res.Table); ok {
				cols := 0
				for _, row := range g {
					cols = max(cols, len(row))
				}
				head := []string{""}
				for j := range cols {
					head = append(head, itoa(firstOf(sr, 1)+j))
				}
				rows := [][]string{head}
				for k, row := range g {
					line := []string{itoa(firstOf(sr, 0) + k)}
					for _, v := range row {
						line = append(line, utoa(v))
					}
					rows = append(rows, line)
				}
				out = append(out, csvFile(pre+"table.csv", rows))
			} else if c, ok := cube(res.Table); ok {
				rows := [][]string{{"i", "j", "k", "value"}}
				for a, layer := range c {
					for b2, row := range layer {
						for k, v := range row {
							rows = append(rows, []string{itoa(firstOf(sr, 0) + a), itoa(firstOf(sr, 1) + b2), itoa(firstOf(sr, 2) + k), utoa(v)})
						}
					}
				}
				out = append(out, csvFile(pre+"table.csv", rows))
			}
		}
		if len(res.Weights) > 0 {
			rows := [][]string{{"heads", "count"}}
			for k, c := range res.Weights {
				rows = append(rows, []string{itoa(k), utoa(c)})
			}
			out = append(out, csvFile(pre+"weights.csv", rows))
		}
		if len(res.Distribution) > 0 {
			rows := [][]string{{"heads", "value", "count"}}
			for w, row := range res.Distribution {
				for v, c := range row {
					if c != 0 {
						rows = append(rows, []string{itoa(w), itoa(v), utoa(c)})
					}
				}
			}
			out = append(out, csvFile(pre+"distribution.csv", rows))
		}
		if len(res.RowPeriods) > 0 {
			rows := [][]string{{"row", "period", "start"}}
			for _, p := range res.RowPeriods {
				rows = append(rows, []string{itoa(p.Row), itoa(p.Period), itoa(p.Start)})
			}
			out = append(out, csvFile(pre+"row-periods.csv", rows))
		}
		if rr := res.Rare; rr != nil && len(rr.Values) > 0 {
			rows := [][]string{{"n", "value", "rare"}}
			for n, v := range rr.Values {
				rows = append(rows, []string{itoa(n), utoa(v), strconv.FormatBool(rr.IsRare(n, v))})
			}
			out = append(out, csvFile(pre+"rare.csv", rows))
		}
		if g := res.Graph; g != nil && g.DOT != "" {
			dot := g.DOT
			if !strings.HasSuffix(dot, "\n") {
				dot += "\n"
			}
			out = append(out, File{pre + "graph.dot", []byte(dot)})
		}
	}
	return out, nil
}

func csvFile(name string, rows [][]string) File {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.WriteAll(rows) // a bytes.Buffer does not fail
	return File{name, b.Bytes()}
}

// WriteFiles writes files into dir (made if missing), each through a
// temporary file renamed into place, so that a reader never sees a
// half-written file. Files of earlier runs with other names are left as
// they are.
func WriteFiles(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return fmt.Errorf("reports: bad export file name %s", strconv.Quote(f.Name))
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name), f.Data, 0); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
	}
	return nil
}
