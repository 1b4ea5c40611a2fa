package play

import (
	"errors"
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
)

// Flags are the command line's flags, as a family's player reads them to
// build its game (nimbook play coins --rule exactly --r 2).
type Flags struct {
	// Get returns a flag's value, as given or its default, and whether
	// it was given.
	Get func(name string) (value string, given bool)
	// Ints reads a list of numbers as the command line writes them
	// (1,3,5 or [1, 3, 5]).
	Ints func(s string) ([]int, error)
	// Start reads the start given by --position (or the family's other
	// start flag), def when none was given.
	Start func(def string) ([]int, error)
}

// FlagError is a bad flag of the command line: the command says how to
// use it.
type FlagError struct{ Msg string }

func (e *FlagError) Error() string { return e.Msg }

// flagErrorf makes a FlagError.
func flagErrorf(format string, args ...any) error {
	return &FlagError{Msg: fmt.Sprintf(format, args...)}
}

// IsFlagError says whether err is a bad flag (FlagError), and its message.
func IsFlagError(err error) (string, bool) {
	var fe *FlagError
	if errors.As(err, &fe) {
		return fe.Msg, true
	}
	return "", false
}

// registerCommand gives the player of the games whose spec is an S a
// command line: the flags it reads, and how it builds its game and start
// from them.
func registerCommand[S job.GameSpec](flags []string, build func(f Flags, play game.Play, lim Limits) (Game, []int, error)) {
	var zero S
	p := playerOf(zero)
	if p == nil {
		panic("play: a command line for a family without a player")
	}
	p.flags, p.command = flags, build
}

// CommandFlags says which flags belong to which family with a command
// line of its own: flag → families, in the order of job files.
func CommandFlags() map[string][]string {
	out := map[string][]string{}
	for _, fam := range job.Families() {
		if p := playerOf(job.SpecOf(fam)); p != nil {
			for _, fl := range p.flags {
				out[fl] = append(out[fl], fam)
			}
		}
	}
	return out
}

// Command builds the game of a family named on the command line from its
// flags, and its start; ok is false when the family has no command line
// of its own. A bad flag is a FlagError.
func Command(fam string, f Flags, play game.Play, lim Limits) (g Game, start []int, ok bool, err error) {
	p := playerOf(job.SpecOf(fam))
	if p == nil || p.command == nil {
		return nil, nil, false, nil
	}
	g, start, err = p.command(f, play, lim)
	return g, start, true, err
}
