package survey

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	sqlite "modernc.org/sqlite"
)

// SQLite's primary result codes that get words of their own.
const (
	sqliteError    = 1
	sqlitePerm     = 3
	sqliteBusy     = 5
	sqliteNoMem    = 7
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteAuth     = 23
	sqliteNotADB   = 26
)

// sqliteCode is SQLite's primary result code of err, 0 for another error.
func sqliteCode(err error) int {
	var se interface{ Code() int } // *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

var _ interface{ Code() int } = (*sqlite.Error)(nil)

func isReadOnly(err error) bool { return sqliteCode(err) == sqliteReadOnly }

// StoreError is a database that could not be opened, read or written,
// said in words: SQLite's own message ("unable to open database file
// (14)") names neither the file nor the cause.
type StoreError struct {
	Path   string // the database
	Reason string // what is wrong, in words
	Hint   string // what to do; may be empty
	Err    error  // SQLite's or the system's error
}

func (e *StoreError) Error() string {
	msg := fmt.Sprintf("survey: %s: %s", e.Path, e.Reason)
	if e.Err != nil {
		msg += " (" + strings.TrimSpace(bare(e.Err).Error()) + ")"
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

func (e *StoreError) Unwrap() error { return e.Err }

// dbError words err, met on the database at path.
func dbError(path string, err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	e := &StoreError{Path: path, Err: err}
	c := sqliteCode(err)
	if c == sqliteIOErr && diskFull(path) {
		c = sqliteFull
	}
	switch c {
	case sqliteFull:
		e.Reason, e.Hint = "the disk is full", "free some space on its disk"
	case sqliteReadOnly:
		e.Reason, e.Hint = "the database is read-only (the file, its directory or its file system cannot be written)", "make them writable, or give another --db"
	case sqliteCantOpen:
		e.Reason, e.Hint = cannotOpen(path)
	case sqliteBusy:
		e.Reason, e.Hint = "another program holds the database locked", "wait for it to finish (another nimbook survey on the same database?), or give another --db"
	case sqlitePerm, sqliteAuth:
		e.Reason, e.Hint = "permission denied", "give a database this user may read and write"
	case sqliteIOErr:
		e.Reason, e.Hint = "the system could not read or write the file (disk I/O error)", "check the disk and the file system, or give another --db"
	case sqliteCorrupt:
		e.Reason, e.Hint = "the database file is damaged", "give another --db (the results it holds may be lost)"
	case sqliteNotADB:
		e.Reason, e.Hint = "not an SQLite database", "give another --db"
	case sqliteNoMem:
		e.Reason = "out of memory"
	default:
		switch {
		case errors.Is(err, fs.ErrNotExist):
			e.Reason = "no such file"
		case errors.Is(err, fs.ErrPermission):
			e.Reason = "permission denied"
		default:
			e.Reason = "cannot use the database"
		}
	}
	return e
}

// cannotOpen finds why SQLite could not open or create the file at path.
func cannotOpen(path string) (reason, hint string) {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		if errors.Is(err, fs.ErrPermission) {
			return "permission denied", "give a database this user may read and write"
		}
		return bare(err).Error(), ""
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return "the directory " + dir + " does not exist", "create it, or give another --db"
	} else if err == nil && !fi.IsDir() {
		return dir + " is not a directory", "give another --db"
	}
	// The file, or its journal beside it, must be made in its directory.
	probe := filepath.Join(filepath.Dir(path), filepath.Base(path)+"-journal")
	if err := atomicfile.Check(probe, atomicfile.Options{}); err != nil {
		var ae *atomicfile.Error
		if errors.As(err, &ae) {
			return "cannot create files in " + dir + ": " + ae.Reason, "give a --db in a directory this user may write"
		}
	}
	return "cannot open the file", ""
}

// bare strips the file name an os error carries.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
