// Package family is the registry of the game families that are not heap
// rules (those have package heap's registry): each registers itself once,
// from its own file, with Register, as database/sql drivers do, and job
// files, the JSON game, reports, notebook built-ins, play, surveys and the
// command line read it. A new family is one file plus its tests:
//
//	func init() {
//		family.Register(&family.Family{
//			Key:    "node-kayles",
//			Order:  110,
//			Text:   family.Texts("Node Kayles: …", "Kayles des sommets : …"),
//			Params: []family.Param{{Key: "graph", Kind: family.Map, …}},
//			Analyses: family.PositionAnalyses,
//			New:    func(p family.Params, env family.Env) (family.Game, error) { … },
//		})
//	}
//
// A Family builds a Game: a start position, the moves of a position and
// how a position is written (JSON and text). Every family that builds one
// answers the analyses of games given by their moves (PositionAnalyses:
// value, outcome, moves, p-positions, graph, plot), computed once for all
// by the job layer with the generic solver (package game). What only some
// games can do is found by type assertion on the Game, as gonum/plot finds
// a plotter's optional interfaces: Splitter (the independent components a
// position is the sum of), Canonicalizer (one representative of a
// symmetry class). A family may estimate the work of its analyses
// before they start (Family.Cost), for job files and surveys to plan it.
//
// Parameters use package heap's vocabulary (Param, Kind, Params), so that
// a family's parameters are read, checked, documented and completed as a
// heap rule's are.
package family
