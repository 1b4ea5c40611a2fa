package survey

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // pure Go: no cgo
)

// SchemaVersion is the version of the database layout below; a database
// of a later version is refused rather than misread.
const SchemaVersion = 1

// schema is the database layout, documented in README.md.
const schema = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS variants (
  idx     INTEGER PRIMARY KEY,  -- index in survey order, from 0
  game    TEXT NOT NULL,        -- {"octal":{"code":"0.07","upto":2000}}
  params  TEXT NOT NULL,        -- {"code":"0.07","upto":2000}
  status  TEXT NOT NULL CHECK (status IN ('done', 'refused', 'error')),
  error   TEXT NOT NULL DEFAULT '',
  results TEXT,                 -- a job section's results (JSON), when done
  seconds REAL NOT NULL,
  version TEXT NOT NULL
);`

// Statuses of a variant. Pending variants have no row.
const (
	StatusDone    = "done"
	StatusRefused = "refused"
	StatusError   = "error"
	StatusPending = "pending"
)

// Row is one variant as stored.
type Row struct {
	Index   int
	Game    string // canonical JSON
	Params  string // canonical JSON
	Status  string
	Error   string
	Results string // canonical JSON; empty unless done
	Seconds float64
	Version string
}

// Meta is a database's identity.
type Meta struct {
	Schema int
	Hash   string // Survey.Hash
	Title  string
	Family string
	Count  int
	File   string // the survey file it was made from
}

// Store is a survey's database.
type Store struct {
	db   *sql.DB
	path string
	Meta Meta
}

func open(path string, readOnly bool) (*sql.DB, error) {
	dsn := "file:" + path
	if readOnly {
		dsn += "?mode=ro"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("survey: %s: %w", path, err)
	}
	// One connection: the pragmas below hold for every statement, and
	// the one writer is the goroutine that records finished variants.
	db.SetMaxOpenConns(1)
	pragmas := []string{"PRAGMA busy_timeout = 10000"}
	if !readOnly {
		// WAL with synchronous NORMAL: a commit survives a crash or a
		// kill -9 of the process (not a power cut, which may lose the
		// last ones).
		pragmas = append(pragmas, "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL")
	}
	for _, p := range pragmas {
		if _, err := db.Exec(p); err != nil {
			db.Close()
			return nil, fmt.Errorf("survey: %s: %w", path, err)
		}
	}
	return db, nil
}

// Create opens the database at path for s, creating it when it does not
// exist. A database made for another survey is refused.
func Create(path string, s *Survey) (*Store, error) {
	_, statErr := os.Stat(path)
	exists := statErr == nil
	db, err := open(path, false)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, path: path}
	if exists {
		if err := st.readMeta(); err != nil {
			db.Close()
			return nil, err
		}
		if st.Meta.Hash != s.Hash {
			db.Close()
			return nil, otherSurvey(path, st.Meta, s.File)
		}
		return st, nil
	}
	tx, err := db.Begin()
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("survey: %s: %w", path, err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("survey: %s: %w", path, err)
	}
	st.Meta = Meta{Schema: SchemaVersion, Hash: s.Hash, Title: s.Title, Family: s.Family, Count: len(s.Variants), File: filepath.Base(s.File)}
	if err := writeMeta(tx, st.Meta); err != nil {
		db.Close()
		return nil, fmt.Errorf("survey: %s: %w", path, err)
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, fmt.Errorf("survey: %s: %w", path, err)
	}
	return st, nil
}

func otherSurvey(path string, m Meta, file string) error {
	return fmt.Errorf("%s holds the results of another survey (%s: %q, %d variants of %s), not of %s; give another --db, or delete %s to start again",
		path, m.File, m.Title, m.Count, m.Family, file, path)
}

// OpenRead opens an existing database to read it.
func OpenRead(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: no such database: %w", path, errors.Unwrap(err))
	}
	db, err := open(path, true)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, path: path}
	if err := st.readMeta(); err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

func writeMeta(tx *sql.Tx, m Meta) error {
	kv := [][2]string{
		{"schema_version", strconv.Itoa(m.Schema)},
		{"survey_hash", m.Hash},
		{"title", m.Title},
		{"family", m.Family},
		{"count", strconv.Itoa(m.Count)},
		{"file", m.File},
	}
	for _, p := range kv {
		if _, err := tx.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

func (st *Store) readMeta() error {
	rows, err := st.db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		return fmt.Errorf("%s is not a nimbook survey database (%v); give another --db", st.path, err)
	}
	defer rows.Close()
	kv := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return fmt.Errorf("survey: %s: %w", st.path, err)
		}
		kv[k] = v
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("survey: %s: %w", st.path, err)
	}
	if kv["survey_hash"] == "" {
		return fmt.Errorf("%s is not a nimbook survey database (no survey identity); give another --db", st.path)
	}
	st.Meta.Schema, _ = strconv.Atoi(kv["schema_version"])
	if st.Meta.Schema > SchemaVersion {
		return fmt.Errorf("%s was written by a newer nimbook (schema %d; this one reads %d); update nimbook", st.path, st.Meta.Schema, SchemaVersion)
	}
	st.Meta.Hash, st.Meta.Title, st.Meta.Family, st.Meta.File = kv["survey_hash"], kv["title"], kv["family"], kv["file"]
	st.Meta.Count, _ = strconv.Atoi(kv["count"])
	return nil
}

// Path is where the database lives.
func (st *Store) Path() string { return st.path }

// Close closes the database; its write-ahead log is folded into it.
func (st *Store) Close() error { return st.db.Close() }

// Put records one finished variant in its own transaction, so that it is
// kept whatever happens to the process next.
func (st *Store) Put(r Row) error {
	var results any
	if r.Results != "" {
		results = r.Results
	}
	_, err := st.db.Exec(`INSERT OR REPLACE INTO variants(idx, game, params, status, error, results, seconds, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.Index, r.Game, r.Params, r.Status, r.Error, results, r.Seconds, r.Version)
	if err != nil {
		return fmt.Errorf("survey: %s: %w", st.path, err)
	}
	return nil
}

// Rows returns every stored variant, by index.
func (st *Store) Rows() ([]Row, error) {
	rs, err := st.db.Query(`SELECT idx, game, params, status, error, COALESCE(results, ''), seconds, version FROM variants ORDER BY idx`)
	if err != nil {
		return nil, fmt.Errorf("survey: %s: %w", st.path, err)
	}
	defer rs.Close()
	var out []Row
	for rs.Next() {
		var r Row
		if err := rs.Scan(&r.Index, &r.Game, &r.Params, &r.Status, &r.Error, &r.Results, &r.Seconds, &r.Version); err != nil {
			return nil, fmt.Errorf("survey: %s: %w", st.path, err)
		}
		out = append(out, r)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("survey: %s: %w", st.path, err)
	}
	return out, nil
}

// Statuses returns the status of every stored variant, by index.
func (st *Store) Statuses() (map[int]string, error) {
	rs, err := st.db.Query(`SELECT idx, status FROM variants`)
	if err != nil {
		return nil, fmt.Errorf("survey: %s: %w", st.path, err)
	}
	defer rs.Close()
	out := map[int]string{}
	for rs.Next() {
		var i int
		var s string
		if err := rs.Scan(&i, &s); err != nil {
			return nil, fmt.Errorf("survey: %s: %w", st.path, err)
		}
		out[i] = s
	}
	return out, rs.Err()
}

// rank orders statuses when merging: a result beats a refusal, which
// beats an error (a refusal may go away with larger limits).
func rank(status string) int {
	switch status {
	case StatusDone:
		return 3
	case StatusRefused:
		return 2
	case StatusError:
		return 1
	}
	return 0
}

// Merge combines databases of one survey into out. An existing out is
// merged too, so that merging again after more shards ran adds to it.
// For a variant in several inputs, done beats refused beats error, and a
// later input wins a tie. out is written whole or not at all.
func Merge(out string, inputs []string) (Meta, error) {
	if len(inputs) == 0 {
		return Meta{}, errors.New("survey merge needs at least one database to merge")
	}
	all := inputs
	if _, err := os.Stat(out); err == nil {
		all = append([]string{out}, inputs...)
	}
	var meta Meta
	best := map[int]Row{}
	for i, in := range all {
		st, err := OpenRead(in)
		if err != nil {
			return Meta{}, err
		}
		m := st.Meta
		rows, err := st.Rows()
		st.Close()
		if err != nil {
			return Meta{}, err
		}
		if i == 0 {
			meta = m
		} else if m.Hash != meta.Hash {
			return Meta{}, fmt.Errorf("%s holds another survey (%s: %q, %d variants) than %s (%s: %q, %d variants); merge databases of one survey only",
				in, m.File, m.Title, m.Count, all[0], meta.File, meta.Title, meta.Count)
		}
		for _, r := range rows {
			if old, ok := best[r.Index]; !ok || rank(r.Status) >= rank(old.Status) {
				best[r.Index] = r
			}
		}
	}
	meta.Schema = SchemaVersion
	dir := filepath.Dir(out)
	tmpf, err := os.CreateTemp(dir, "."+filepath.Base(out)+".tmp*")
	if err != nil {
		return Meta{}, fmt.Errorf("survey merge: %w", err)
	}
	tmp := tmpf.Name()
	tmpf.Close()
	os.Remove(tmp)
	fail := func(err error) (Meta, error) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(tmp + suffix)
		}
		return Meta{}, err
	}
	db, err := open(tmp, false)
	if err != nil {
		return fail(err)
	}
	tx, err := db.Begin()
	if err != nil {
		db.Close()
		return fail(err)
	}
	if _, err := tx.Exec(schema); err != nil {
		tx.Rollback()
		db.Close()
		return fail(err)
	}
	if err := writeMeta(tx, meta); err != nil {
		tx.Rollback()
		db.Close()
		return fail(err)
	}
	for i := 0; i < meta.Count; i++ {
		r, ok := best[i]
		if !ok {
			continue
		}
		var results any
		if r.Results != "" {
			results = r.Results
		}
		if _, err := tx.Exec(`INSERT INTO variants(idx, game, params, status, error, results, seconds, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Index, r.Game, r.Params, r.Status, r.Error, results, r.Seconds, r.Version); err != nil {
			tx.Rollback()
			db.Close()
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return fail(err)
	}
	if err := db.Close(); err != nil {
		return fail(err)
	}
	// A log left beside out by a crashed writer must not be replayed into
	// the new file.
	os.Remove(out + "-wal")
	os.Remove(out + "-shm")
	if err := os.Rename(tmp, out); err != nil {
		return fail(err)
	}
	return meta, nil
}
