package play

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	registry "github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// Playable reports whether a job family can be played: every heap rule,
// Wythoff's game, coins, products and the registered families (package
// family) whose games are given by their moves.
func Playable(fam string) bool {
	if _, ok := heap.Lookup(fam); ok {
		return true
	}
	if playerOf(job.SpecOf(fam)) != nil {
		return true
	}
	f, ok := registry.Lookup(fam)
	return ok && f.New != nil // a game given by its moves
}

// Families lists the families that can be played by name, the heap rules
// first in their order, then those with a player, in job files' order.
func Families() []string {
	out := heap.RuleNames()
	for _, fam := range job.Families() {
		if _, ok := heap.Lookup(fam); ok {
			continue
		}
		if playerOf(job.SpecOf(fam)) != nil {
			out = append(out, fam)
		}
	}
	return out
}

// A player makes the games of one family's job sections playable. It is
// registered in the file of the family's engine, by the Go type of the
// family's game (a job.GameSpec), so that no family is named here.
type player struct {
	// section builds the game of a section and its start (nil: none).
	section func(s *job.Section, play game.Play, lim Limits) (Game, []int, error)
	// start is the start of a game named on the command line.
	start []int
	// flags and command, when set, build the game named on the command
	// line from its flags (registerCommand).
	flags   []string
	command func(f Flags, play game.Play, lim Limits) (Game, []int, error)
}

var players = map[reflect.Type]*player{}

// registerPlayer registers the player of the games whose spec is an S.
func registerPlayer[S job.GameSpec](start []int, section func(s *job.Section, spec S, play game.Play, lim Limits) (Game, []int, error)) {
	t := reflect.TypeFor[S]()
	if players[t] != nil {
		panic("play: two players for " + t.String())
	}
	players[t] = &player{start: start, section: func(s *job.Section, play game.Play, lim Limits) (Game, []int, error) {
		return section(s, s.Game.(S), play, lim)
	}}
}

// playerOf returns the player of g's family, or nil.
func playerOf(g job.GameSpec) *player {
	if g == nil {
		return nil
	}
	return players[reflect.TypeOf(g)]
}

// Named returns the game of a family named on the command line, with its
// default parameters (job.DefaultGame), under play, and its usual start;
// ok is false when the family has no player.
func Named(fam string, play game.Play, lim Limits) (g Game, start []int, ok bool, err error) {
	spec := job.DefaultGame(fam)
	p := playerOf(spec)
	if p == nil {
		return nil, nil, false, nil
	}
	s := &job.Section{Family: fam, Game: spec, Play: "normal"}
	if play == game.Misere {
		s.Play = "misere"
	}
	g, _, err = p.section(s, play, lim)
	return g, slices.Clone(p.start), true, err
}

// familyList writes the playable families for a message, the last one
// after "or".
func familyList() string {
	fs := Families()
	return strings.Join(fs[:len(fs)-1], ", ") + " or " + fs[len(fs)-1]
}

// FindSection picks a section of a job: sel is its number (from 1), its
// title (case ignored), or empty for the first section whose game can be
// played.
func FindSection(j *job.Job, sel string) (*job.Section, error) {
	if sel == "" {
		for _, s := range j.Sections {
			if s.Family != "" && Playable(s.Family) {
				return s, nil
			}
		}
		return nil, fmt.Errorf("play: %s has no section with a game to play (%s)", j.File, familyList())
	}
	if i, err := strconv.Atoi(sel); err == nil {
		if i < 1 || i > len(j.Sections) {
			return nil, fmt.Errorf("play: %s has sections 1 to %d, not %d", j.File, len(j.Sections), i)
		}
		return j.Sections[i-1], nil
	}
	var titles []string
	for _, s := range j.Sections {
		if strings.EqualFold(s.Title, sel) {
			return s, nil
		}
		titles = append(titles, strconv.Quote(s.Title))
	}
	return nil, fmt.Errorf("play: %s has no section titled %q; its sections: %s", j.File, sel, strings.Join(titles, ", "))
}

// FromSection returns the game of a job section and its position (nil when
// the section gives none), within the engines' default limits.
func FromSection(s *job.Section) (Game, []int, error) {
	return FromSectionLimits(s, Limits{})
}

// FromSectionLimits is FromSection within lim.
func FromSectionLimits(s *job.Section, lim Limits) (Game, []int, error) {
	play := game.Normal
	if s.Play == "misere" {
		play = game.Misere
	}
	start, _ := s.Position.([]int)
	if s.Registered() != nil {
		return fromFamilySection(s, play, lim)
	}
	if h := s.Heap(); h != nil {
		g, err := h.NewGame()
		if err != nil {
			return nil, nil, fmt.Errorf("play: %w", err)
		}
		hg, err := newHeaps(g, h.Rule, h.Params.Clone(), play, lim.Heap())
		return hg, start, err
	}
	if p := playerOf(s.Game); p != nil {
		return p.section(s, play, lim)
	}
	return nil, nil, fmt.Errorf("play: %s games cannot be played yet; play %s", s.Family, familyList())
}
