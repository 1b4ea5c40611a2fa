package survey

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/nimbook/nimbook/explore/atomicfile"
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
	Rules  string // Survey.Rules: its rule files and their content's hashes
}

// Store is a survey's database.
type Store struct {
	db   *sql.DB
	path string
	Meta Meta
	// ReadOnly is set when the database can be read but not written (the
	// file, its directory or its file system is read-only): Run refuses
	// to compute into it, a report over it is fine.
	ReadOnly bool
}

// memory is SQLite's name for a database in memory, kept by no file.
const memory = ":memory:"

// dsn is the URI of the database file at path: SQLite reads "?" and "#"
// in a URI as the start of a query or a fragment and decodes "%XX", so
// those are escaped for a path to mean itself.
func dsn(path string, query string) string {
	if path == memory {
		return "file::memory:?" + query
	}
	p := filepath.Clean(path)
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '%', '?', '#':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("?" + query)
	return b.String()
}

// checkFile refuses a database path that is not a regular file: SQLite
// would write its journal beside a device (/dev/null-journal) or fail
// with a bare error on a directory. A path that does not exist yet is
// fine when create is set.
func checkFile(path string, create bool) error {
	if path == memory {
		return nil
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("survey: %s is a directory, not a database: give a file name (e.g. %s)", path, filepath.Join(path, "survey.db"))
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("survey: %s is not a regular file (%s), not a database: give the path of a file, new or made by nimbook survey", path, fileKind(fi.Mode()))
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist) && create:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("survey: %s: no such database", path)
	}
	return createError(path, err)
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

func open(path string, readOnly bool) (*sql.DB, error) {
	// Transactions take the write lock at once (BEGIN IMMEDIATE): two
	// processes creating one database wait for each other instead of one
	// reading a half-made schema.
	query := "_txlock=immediate"
	if readOnly {
		// Read-write where the file allows it, but no statement may
		// write: a reader that closes last folds the -wal file into the
		// database and removes it with the -shm file (mode=ro leaves both
		// beside every database it reads).
		query = "mode=rw"
	}
	db, err := sql.Open("sqlite", dsn(path, query))
	if err != nil {
		return nil, dbError(path, err)
	}
	// One connection: the pragmas below hold for every statement, and
	// the one writer is the goroutine that records finished variants.
	db.SetMaxOpenConns(1)
	pragmas := []string{"PRAGMA busy_timeout = 10000"}
	if readOnly {
		pragmas = append(pragmas, "PRAGMA query_only = 1")
	} else {
		// WAL with synchronous NORMAL: a commit survives a crash or a
		// kill -9 of the process (not a power cut, which may lose the
		// last ones).
		pragmas = append(pragmas, "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL")
	}
	for _, p := range pragmas {
		if _, err := db.Exec(p); err != nil {
			db.Close()
			return nil, dbError(path, err)
		}
	}
	return db, nil
}

// Create opens the database at path for s, creating it when it does not
// exist. A database made for another survey is refused. A database that
// can be read but not written is opened read-only (Store.ReadOnly).
// Runs started together on a new database both find it whole: it is made
// in a temporary file and linked into place, and the schema of a
// database that exists but is empty is written under the write lock.
func Create(path string, s *Survey) (*Store, error) {
	if err := checkFile(path, true); err != nil {
		return nil, err
	}
	if path != memory {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if err := createNew(path, s); err != nil {
				return nil, err
			}
		}
	}
	db, err := open(path, false)
	if isReadOnly(err) {
		return openReadOnly(path, s, err)
	}
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, path: path}
	tx, err := db.Begin() // BEGIN IMMEDIATE: the write lock, waited for
	if isReadOnly(err) {
		db.Close()
		return openReadOnly(path, s, err)
	}
	if err != nil {
		db.Close()
		return nil, dbError(path, err)
	}
	defer tx.Rollback()
	var tables int
	if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
		db.Close()
		return nil, notSurvey(path, err)
	}
	if tables > 0 {
		// Made before, by an earlier run, a twin or another program: it
		// must be this survey's.
		if err := st.readMetaFrom(tx); err != nil {
			db.Close()
			return nil, err
		}
		if st.Meta.Hash != s.Hash {
			db.Close()
			return nil, otherSurvey(path, st.Meta, s.File, s.Rules)
		}
		if err := tx.Commit(); err != nil {
			db.Close()
			return nil, dbError(path, err)
		}
		return st, nil
	}
	st.Meta = newMeta(s)
	if err := initSchema(tx, st.Meta); err != nil {
		db.Close()
		return nil, dbError(path, err)
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, dbError(path, err)
	}
	return st, nil
}

func newMeta(s *Survey) Meta {
	return Meta{Schema: SchemaVersion, Hash: s.Hash, Title: s.Title, Family: s.Family, Count: len(s.Variants), File: filepath.Base(s.File), Rules: s.Rules}
}

func initSchema(tx *sql.Tx, m Meta) error {
	if _, err := tx.Exec(schema); err != nil {
		return err
	}
	return writeMeta(tx, m)
}

// createNew makes the database of s at path whole before anyone sees it:
// in a temporary file beside it, then hard-linked into place, which fails
// when a twin run made path first (its file is used, and it is the same).
// Whatever fails, only the temporary file is removed: never a database
// another process may have opened. Where the file system has no hard
// links, nothing is done and Create writes the schema under the lock.
func createNew(path string, s *Survey) error {
	tmp, err := tempName(path)
	if err != nil {
		return createError(path, err)
	}
	defer removeDB(tmp)
	db, err := open(tmp, false)
	if err != nil {
		return renamed(err, path)
	}
	tx, err := db.Begin()
	if err == nil {
		if err = initSchema(tx, newMeta(s)); err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return renamed(dbError(tmp, err), path)
	}
	// The link fails when a twin made path first (that one is used), or
	// where there are no hard links (Create makes the schema under the
	// lock): either way Create goes on with the file at path.
	os.Link(tmp, path)
	return nil
}

// tempName makes a new empty file beside path, hidden, with the mode a
// new database gets (0666 less the umask, as SQLite gives it; not
// os.CreateTemp's 0600), and returns its name.
func tempName(path string) (string, error) {
	for range 1000 {
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		f.Close()
		return name, nil
	}
	return "", errors.New("no free temporary file name")
}

// renamed gives a StoreError about a temporary file the path of the
// database it stands for.
func renamed(err error, path string) error {
	var se *StoreError
	if errors.As(err, &se) {
		se.Path = path
	}
	return err
}

// createError words the failure to make a new file beside path.
func createError(path string, err error) error {
	dir := filepath.Dir(path)
	e := &StoreError{Path: path, Err: err}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Reason, e.Hint = "the directory "+dir+" does not exist", "create it, or give another --db"
	case errors.Is(err, syscall.ENOTDIR):
		e.Reason, e.Hint = dir+" is not a directory", "give another --db"
	case errors.Is(err, fs.ErrPermission):
		e.Reason, e.Hint = "cannot create files in "+dir+": permission denied", "give a --db in a directory this user may write"
	case errors.Is(err, syscall.EROFS):
		e.Reason, e.Hint = "cannot create files in "+dir+": the file system is read-only", "give a --db on a writable file system"
	case errors.Is(err, syscall.ENOSPC):
		e.Reason, e.Hint = "the disk is full", "free some space on its disk"
	default:
		e.Reason = "cannot create or open the database"
	}
	return e
}

// openReadOnly opens for reading a database Create could not write:
// one that exists and is of s. why is the error of the write.
func openReadOnly(path string, s *Survey, why error) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, dbError(path, why) // cannot be created: nothing to read
	}
	st, err := OpenRead(path)
	if err != nil {
		return nil, err
	}
	if st.Meta.Hash != s.Hash {
		st.Close()
		return nil, otherSurvey(path, st.Meta, s.File, s.Rules)
	}
	st.ReadOnly = true
	return st, nil
}

// Writable refuses to compute todo variants into a read-only database;
// nil when it is writable or there is nothing to compute.
func (st *Store) Writable(todo int) error {
	if !st.ReadOnly || todo == 0 {
		return nil
	}
	held := "some"
	if have, err := st.Statuses(); err == nil {
		held = strconv.Itoa(len(have))
	}
	return &StoreError{Path: st.path,
		Reason: fmt.Sprintf("the database is read-only (the file, its directory or its file system cannot be written): it holds %s of %d variants and cannot take the %d to compute", held, st.Meta.Count, todo),
		Hint:   "make it and its directory writable, or copy it (with its -wal file, if there is one) and give the copy as --db; a report over what it holds needs no writing"}
}

func otherSurvey(path string, m Meta, file string, rules string) error {
	if m.Rules != rules && m.File == filepath.Base(file) {
		return fmt.Errorf("%s holds results computed with another version of the rule file (then: %s; now: %s): the rule changed since, and the results would mix two rules; compute into a new --db, delete %s to start again, or restore the rule file",
			path, ruleList(m.Rules), ruleList(rules), path)
	}
	return fmt.Errorf("%s holds the results of another survey (%s: %q, %d variants of %s), not of %s; give another --db, or delete %s to start again",
		path, m.File, m.Title, m.Count, m.Family, file, path)
}

func notSurvey(path string, err error) error {
	if sqliteCode(err) == sqliteNotADB {
		return fmt.Errorf("%s is not a nimbook survey database (not an SQLite database at all); give another --db", path)
	}
	return dbError(path, err)
}

// OpenRead opens an existing database to read it.
func OpenRead(path string) (*Store, error) {
	if err := checkFile(path, false); err != nil {
		return nil, err
	}
	db, err := open(path, true)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, path: path}
	err = st.readMeta()
	if c := sqliteCode(err); (c == sqliteReadOnly || c == sqliteCantOpen) && !exists(path+"-wal") {
		// A database in a directory this user cannot write: SQLite cannot
		// make the shared-memory file it reads a WAL database with. With
		// no -wal file there, no one is writing it (a writer would have
		// made one): read it as the immutable file it is.
		db.Close()
		if db, err = sql.Open("sqlite", dsn(path, "mode=ro&immutable=1")); err != nil {
			return nil, dbError(path, err)
		}
		db.SetMaxOpenConns(1)
		st.db = db
		err = st.readMeta()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func writeMeta(tx *sql.Tx, m Meta) error {
	kv := [][2]string{
		{"schema_version", strconv.Itoa(m.Schema)},
		{"survey_hash", m.Hash},
		{"title", m.Title},
		{"family", m.Family},
		{"count", strconv.Itoa(m.Count)},
		{"file", m.File},
		{"rules", m.Rules},
	}
	for _, p := range kv {
		if _, err := tx.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

func (st *Store) readMeta() error { return st.readMetaFrom(st.db) }

type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

func (st *Store) readMetaFrom(q querier) error {
	rows, err := q.Query(`SELECT key, value FROM meta`)
	if err != nil {
		if sqliteCode(err) == sqliteError { // no such table: another program's database
			return fmt.Errorf("%s is not a nimbook survey database (%v); give another --db", st.path, err)
		}
		return notSurvey(st.path, err)
	}
	defer rows.Close()
	kv := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return dbError(st.path, err)
		}
		kv[k] = v
	}
	if err := rows.Err(); err != nil {
		return dbError(st.path, err)
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
	st.Meta.Rules = kv["rules"]
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
		return dbError(st.path, err)
	}
	return nil
}

// Rows returns every stored variant, by index.
func (st *Store) Rows() ([]Row, error) {
	rs, err := st.db.Query(`SELECT idx, game, params, status, error, COALESCE(results, ''), seconds, version FROM variants ORDER BY idx`)
	if err != nil {
		return nil, dbError(st.path, err)
	}
	defer rs.Close()
	var out []Row
	for rs.Next() {
		var r Row
		if err := rs.Scan(&r.Index, &r.Game, &r.Params, &r.Status, &r.Error, &r.Results, &r.Seconds, &r.Version); err != nil {
			return nil, dbError(st.path, err)
		}
		out = append(out, r)
	}
	if err := rs.Err(); err != nil {
		return nil, dbError(st.path, err)
	}
	return out, nil
}

// Statuses returns the status of every stored variant, by index.
func (st *Store) Statuses() (map[int]string, error) {
	rs, err := st.db.Query(`SELECT idx, status FROM variants`)
	if err != nil {
		return nil, dbError(st.path, err)
	}
	defer rs.Close()
	out := map[int]string{}
	for rs.Next() {
		var i int
		var s string
		if err := rs.Scan(&i, &s); err != nil {
			return nil, dbError(st.path, err)
		}
		out[i] = s
	}
	if err := rs.Err(); err != nil {
		return nil, dbError(st.path, err)
	}
	return out, nil
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
// merged too, so that merging again after more shards ran adds to it. An
// input that is a directory stands for every .db file in it (in the order
// of their names, numbers by value): a job array's shards are merged
// without a command line as long as the array. For a variant in several
// inputs, done beats refused beats error, and a later input wins a tie;
// two different results of one variant are an error (a variant's result
// does not depend on where it ran), and nothing is written. out is written
// whole or not at all; when it replaces a file, that file's mode (and, as
// root, owner) are kept.
func Merge(out string, inputs []string) (Meta, error) {
	if len(inputs) == 0 {
		return Meta{}, errors.New("survey merge needs at least one database to merge")
	}
	if err := checkFile(out, true); err != nil {
		return Meta{}, err
	}
	ins, err := expandInputs(inputs)
	if err != nil {
		return Meta{}, err
	}
	all := ins
	if _, err := os.Stat(out); err == nil {
		all = append([]string{out}, ins...)
	}
	var meta Meta
	best := map[int]Row{}
	from := map[int]string{} // the input of each best row
	var conflicts []string
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
		} else if m.Hash != meta.Hash && m.Rules != meta.Rules && m.File == meta.File {
			return Meta{}, fmt.Errorf("%s was computed with another version of the rule file (%s) than %s (%s); merge shards of one version of the rule only",
				in, ruleList(m.Rules), all[0], ruleList(meta.Rules))
		} else if m.Hash != meta.Hash {
			return Meta{}, fmt.Errorf("%s holds another survey (%s: %q, %d variants) than %s (%s: %q, %d variants); merge databases of one survey only",
				in, m.File, m.Title, m.Count, all[0], meta.File, meta.Title, meta.Count)
		}
		for _, r := range rows {
			old, ok := best[r.Index]
			if ok {
				if c := disagreement(old, from[r.Index], r, in); c != "" {
					conflicts = append(conflicts, c)
					continue
				}
			}
			if !ok || rank(r.Status) >= rank(old.Status) {
				best[r.Index] = r
				from[r.Index] = in
			}
		}
	}
	if len(conflicts) > 0 {
		more := ""
		if len(conflicts) > 1 {
			more = fmt.Sprintf(" (and %d more disagreements)", len(conflicts)-1)
		}
		return Meta{}, fmt.Errorf("survey merge: the databases disagree, nothing was written: %s%s; the same variant must give the same result wherever it ran (another nimbook version?): drop the database you do not trust, or compute the variant again into a new one",
			conflicts[0], more)
	}
	meta.Schema = SchemaVersion
	// The new file is made beside the file it replaces (out may be a
	// link), so that the rename is atomic.
	target := atomicfile.Resolve(out)
	tmp, err := tempName(target)
	if err != nil {
		return Meta{}, renamed(createError(out, err), out)
	}
	os.Remove(tmp)
	fail := func(err error) (Meta, error) {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(tmp + suffix)
		}
		var se *StoreError
		if errors.As(err, &se) {
			se.Path = out // not the temporary file
			return Meta{}, se
		}
		return Meta{}, dbError(out, err)
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
	os.Remove(target + "-wal")
	os.Remove(target + "-shm")
	if err := atomicfile.Replace(tmp, out); err != nil {
		return fail(err)
	}
	return meta, nil
}

// disagreement describes two rows of one variant that cannot both be
// right: two results that differ, or two games (a damaged database).
// Empty when they agree or one merely supersedes the other (a result over
// a failure).
func disagreement(a Row, fromA string, b Row, fromB string) string {
	switch {
	case a.Game != b.Game:
		return fmt.Sprintf("variant %d is the game %s in %s but %s in %s", a.Index, clip(a.Game), fromA, clip(b.Game), fromB)
	case a.Status == StatusDone && b.Status == StatusDone && a.Results != b.Results:
		return fmt.Sprintf("variant %d (%s) is done in both %s and %s with different results: %s against %s",
			a.Index, clip(a.Game), fromA, fromB, clip(a.Results), clip(b.Results))
	}
	return ""
}

// clip shortens a JSON text for a message.
func clip(s string) string {
	const n = 120
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// expandInputs replaces each directory of inputs by the .db files in it.
func expandInputs(inputs []string) ([]string, error) {
	var out []string
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil || !fi.IsDir() {
			out = append(out, in)
			continue
		}
		es, err := os.ReadDir(in)
		if err != nil {
			return nil, fmt.Errorf("survey merge: cannot read the directory %s: %w", in, bare(err))
		}
		var names []string
		for _, e := range es {
			n := e.Name()
			if strings.HasSuffix(n, ".db") && !strings.HasPrefix(n, ".") && e.Type().IsRegular() {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("survey merge: the directory %s holds no database (no .db file)", in)
		}
		sort.Slice(names, func(i, j int) bool { return nameLess(names[i], names[j]) })
		for _, n := range names {
			out = append(out, filepath.Join(in, n))
		}
	}
	return out, nil
}

// nameLess orders 2.db before 10.db: names that are numbers by value,
// before the others, which go in string order.
func nameLess(a, b string) bool {
	na, ea := strconv.ParseUint(strings.TrimSuffix(a, ".db"), 10, 64)
	nb, eb := strconv.ParseUint(strings.TrimSuffix(b, ".db"), 10, 64)
	switch {
	case ea == nil && eb == nil:
		return na < nb
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return a < b
}

// removeDB removes a database file and the journal files beside it.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// ruleList says a survey's rule files and their hashes on one line, the
// hashes cut to 12 digits: "rules.star 3f2a9c0d1e4b".
func ruleList(rules string) string {
	if rules == "" {
		return "no rule file recorded"
	}
	var out []string
	for _, line := range strings.Split(rules, "\n") {
		name, sum, _ := strings.Cut(line, " ")
		if len(sum) > 12 {
			sum = sum[:12]
		}
		out = append(out, name+" "+sum)
	}
	return strings.Join(out, ", ")
}
