package reports

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/job"
)

// File is one exported file: a name (no directory) and what writes its
// bytes. The bytes are made as they are written, a row at a time, so that
// a file of millions of rows is never held whole in memory.
type File struct {
	Name  string
	Write func(w io.Writer) error
}

// Exports lists the files that turn r's results into input for other
// tools, named by section number (two digits, from 01) and analysis, so
// that the names are the same from run to run:
//
//   - sNN-values.csv: "n,value", n numbered as in the report (coins from
//     their first number); sNN-values.b.txt: the same as an OEIS b-file,
//     "n a(n)" lines after a # comment naming the section;
//   - sNN-histogram.txt, for a heap game's values: a line "value count"
//     for each value that occurs among g(1..upto), values ascending, the
//     form of T. Rogalski's published octal tables
//     (github.com/rogalski-wmii-uni-lodz-pl/octal, results/CODE/2^k, which
//     list the absent values below the largest too, with count 0);
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
// the JSON form has them all. A File's Write stops between rows once ctx
// is done, with budget.Err(ctx).
func Exports(ctx context.Context, r *job.Report) ([]File, error) {
	if r == nil {
		return nil, errors.New("reports: nil report")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var out []File
	add := func(name string, rows func(*lines) error) {
		out = append(out, File{name, func(w io.Writer) error {
			l := &lines{ctx: ctx, w: w}
			if err := rows(l); err != nil {
				return err
			}
			return budget.Err(ctx)
		}})
	}
	// Files are numbered by the sections as the report prints them: the
	// sections of one job file section across a parameter are one
	// printed section (one table), their files told apart by the
	// parameter's value (s02-r3-values.csv).
	printed, member := 0, 0
	for i, sr := range r.Sections {
		if sr == nil {
			continue
		}
		ac := across(sr)
		if i > 0 && ac != nil && across(r.Sections[i-1]) == ac {
			member++
		} else {
			printed++
			member = 0
		}
		pre := fmt.Sprintf("s%02d-", printed)
		if ac != nil && member < len(ac.Labels) {
			pre += figureStem(ac.Stem(member)) + "-"
		}
		res := &sr.Results
		title := sr.Title
		if title == "" {
			title = fmt.Sprintf("section %d", i+1)
		}
		if vals := res.Values; len(vals) > 0 {
			first := firstOf(sr, 0)
			add(pre+"values.csv", func(l *lines) error {
				if err := l.text("n,value"); err != nil {
					return err
				}
				for k, v := range vals {
					l.int(first + k).comma().uint(v)
					if err := l.end(); err != nil {
						return err
					}
				}
				return nil
			})
			add(pre+"values.b.txt", func(l *lines) error {
				if err := l.text("# " + strings.ReplaceAll(title, "\n", " ")); err != nil {
					return err
				}
				for k, v := range vals {
					// The b-file line of package coins, which streams the
					// values of a lexicode as it finds them (WriteBFile):
					// one format for every b-file nimbook writes.
					l.b = coins.AppendBFileLine(l.b, first+k, v)
					if err := l.flush(); err != nil {
						return err
					}
				}
				return nil
			})
			if sr.Spec != nil && sr.Spec.Heap() != nil {
				add(pre+"histogram.txt", func(l *lines) error {
					for _, vc := range histogram(vals, first) {
						l.uint(vc[0]).text1(' ').uint(vc[1])
						if err := l.end(); err != nil {
							return err
						}
					}
					return nil
				})
			}
		}
		if res.Table != nil {
			r0, c0, l0 := firstOf(sr, 0), firstOf(sr, 1), firstOf(sr, 2)
			if g, ok := grid(res.Table); ok {
				add(pre+"table.csv", func(l *lines) error {
					cols := 0
					for _, row := range g {
						cols = max(cols, len(row))
					}
					for j := range cols { // the header: an empty corner, then the column numbers
						l.comma().int(c0 + j)
					}
					if err := l.end(); err != nil {
						return err
					}
					for k, row := range g {
						l.int(r0 + k)
						for _, v := range row {
							l.comma().uint(v)
						}
						if err := l.end(); err != nil {
							return err
						}
					}
					return nil
				})
			} else if c, ok := cube(res.Table); ok {
				add(pre+"table.csv", func(l *lines) error {
					if err := l.text("i,j,k,value"); err != nil {
						return err
					}
					for a, layer := range c {
						for b, row := range layer {
							for k, v := range row {
								l.int(r0 + a).comma().int(c0 + b).comma().int(l0 + k).comma().uint(v)
								if err := l.end(); err != nil {
									return err
								}
							}
						}
					}
					return nil
				})
			}
		}
		if ws := res.Weights; len(ws) > 0 {
			add(pre+"weights.csv", func(l *lines) error {
				if err := l.text("heads,count"); err != nil {
					return err
				}
				for k, c := range ws {
					l.int(k).comma().uint(c)
					if err := l.end(); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if dist := res.Distribution; len(dist) > 0 {
			add(pre+"distribution.csv", func(l *lines) error {
				if err := l.text("heads,value,count"); err != nil {
					return err
				}
				for w, row := range dist {
					for v, c := range row {
						if c == 0 {
							continue
						}
						l.int(w).comma().int(v).comma().uint(c)
						if err := l.end(); err != nil {
							return err
						}
					}
				}
				return nil
			})
		}
		if ps := res.RowPeriods; len(ps) > 0 {
			add(pre+"row-periods.csv", func(l *lines) error {
				if err := l.text("row,period,start"); err != nil {
					return err
				}
				for _, p := range ps {
					l.int(p.Row).comma().int(p.Period).comma().int(p.Start)
					if err := l.end(); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if rr := res.Rare; rr != nil && len(rr.Values) > 0 {
			add(pre+"rare.csv", func(l *lines) error {
				if err := l.text("n,value,rare"); err != nil {
					return err
				}
				for n, v := range rr.Values {
					l.int(n).comma().uint(v).comma()
					l.b = strconv.AppendBool(l.b, rr.IsRare(n, v))
					if err := l.end(); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if g := res.Graph; g != nil && g.DOT != "" {
			dot := g.DOT
			add(pre+"graph.dot", func(l *lines) error {
				if _, err := io.WriteString(l.w, dot); err != nil {
					return err
				}
				if !strings.HasSuffix(dot, "\n") {
					_, err := io.WriteString(l.w, "\n")
					return err
				}
				return nil
			})
		}
	}
	return out, nil
}

// checkEvery is how many rows an export writes between two looks at its
// context: often enough to stop within a second, rarely enough to cost
// nothing.
const checkEvery = 4096

// lines writes the rows of an export file, one line built at a time. The
// fields are numbers and fixed words, which CSV never quotes, so a row is
// written as encoding/csv would write it.
type lines struct {
	ctx context.Context
	w   io.Writer
	b   []byte // the line being built
	n   int    // lines written
}

func (l *lines) int(x int) *lines     { l.b = strconv.AppendInt(l.b, int64(x), 10); return l }
func (l *lines) uint(x uint64) *lines { l.b = strconv.AppendUint(l.b, x, 10); return l }
func (l *lines) comma() *lines        { l.b = append(l.b, ','); return l }
func (l *lines) text1(c byte) *lines  { l.b = append(l.b, c); return l }

// text writes s as a whole line.
func (l *lines) text(s string) error {
	l.b = append(l.b, s...)
	return l.end()
}

// end ends the line being built and writes it.
func (l *lines) end() error {
	l.b = append(l.b, '\n')
	return l.flush()
}

// flush writes the line built (with its newline) and, every checkEvery
// lines, stops if the context is done.
func (l *lines) flush() error {
	_, err := l.w.Write(l.b)
	l.b = l.b[:0]
	if err != nil {
		return err
	}
	if l.n++; l.n%checkEvery == 0 {
		return budget.Err(l.ctx)
	}
	return nil
}

// exportBuffer is the buffer between an export's rows and its file.
const exportBuffer = 64 << 10

// WriteFiles writes files into dir (made if missing), each streamed
// through a buffer to a temporary file renamed into place
// (package atomicfile), so that a reader never sees a half-written file.
// Files of earlier runs with other names are left as they are. Once ctx is
// done the file being written is dropped and the error is budget.Err(ctx).
func WriteFiles(ctx context.Context, dir string, files []File) error {
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return fmt.Errorf("reports: bad export file name %s", strconv.Quote(f.Name))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	for _, f := range files {
		err := atomicfile.Write(ctx, filepath.Join(dir, f.Name), atomicfile.Options{}, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, exportBuffer)
			if err := f.Write(bw); err != nil {
				return err
			}
			return bw.Flush()
		})
		if err != nil {
			if ctx != nil && ctx.Err() != nil {
				return budget.Err(ctx)
			}
			return fmt.Errorf("reports: %w", err)
		}
	}
	return nil
}

// WriteExports writes the Exports of r into dir (see WriteFiles). What
// the writing costs, a buffer and a row per file whatever its length, is
// checked against Options.MaxMemory first, as a rendering's is.
func WriteExports(ctx context.Context, dir string, r *job.Report, o Options) error {
	if o.MaxMemory > 0 {
		if err := budget.Exceeds("writing the exports", costExport, o.MaxMemory); err != nil {
			return fmt.Errorf("reports: %w; raise it with --max-memory (or limits: memory in the job file)", err)
		}
	}
	files, err := Exports(ctx, r)
	if err != nil {
		return err
	}
	return WriteFiles(ctx, dir, files)
}

// histogram counts the values of heaps 1 and up among vals, the values of
// heaps first, first+1, …: pairs (value, count), values ascending. Values
// below 2^20 are counted in a table, wider ones sorted.
func histogram(vals []uint64, first int) [][2]uint64 {
	if first < 1 {
		vals = vals[min(1-first, len(vals)):]
	}
	var top uint64
	for _, v := range vals {
		top = max(top, v)
	}
	var out [][2]uint64
	if top < 1<<20 {
		counts := make([]uint64, top+1)
		for _, v := range vals {
			counts[v]++
		}
		for v, c := range counts {
			if c > 0 {
				out = append(out, [2]uint64{uint64(v), c})
			}
		}
		return out
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		out = append(out, [2]uint64{sorted[i], uint64(j - i)})
		i = j
	}
	return out
}
