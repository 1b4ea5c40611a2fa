// Package play lets a person play an impartial game against the computer:
// the game loop, independent of any terminal, with a computer that never
// misses a winning move, hints, taking moves back, and a record of every game
// that `nimbook run` can analyse.
//
// One job: run a game between a human, who types moves as lines of text, and
// the computer. Lines come through a LineReader (a terminal, a pipe, or
// later Jupyter's stdin channel, input_request) and everything shown goes to
// an io.Writer, so the same loop serves the command line and the notebook.
//
// Families (Game) adapt the engine packages: Heaps (every heap rule
// registered in package heap: Nim, subtraction, octal games and the rest,
// each known through the registry and the capabilities of its game), Wythoff
// (package wythoff), Coins (coin turning, package coins) and Product
// (tartan products of 2 or 3 coin games); FromSection builds one from a job
// file's section. Positions are lists of integers in SPEC.md's position
// form: heaps stay in place (0 when emptied, a split heap replaced in place
// by its parts, smaller first), Wythoff's [a, b], and the sorted numbers of
// the coins showing heads; a product's heads are cells, each numbered by its
// row-major index over the grid (see Product).
//
// Notation, forgiving about separators (blanks, commas, colons, dashes):
//
//   - heaps: "3 2" takes 2 tokens from heap 3 (heaps numbered from 1, left
//     to right); with one non-empty heap, "2" is enough; games that split a
//     heap list the heaps left after the number taken, "3 1 2 4" (the last
//     part may be left out); "(1,3,3,7)" names the position after the move,
//     matched exactly or as the same non-empty heaps in any order;
//   - Wythoff: "a 3", "b 3", "both 3" take 3 from heap a, heap b or both;
//     "(2,4)" or "2 4" names the position after the move;
//   - coins: "5 4 1" turns coins 5, 4 and 1, in any order; "(2,4)" names the
//     heads after the move;
//   - products: the coins to turn as coordinates, "(2,4) (2,6) (6,4) (6,6)",
//     "2,4 2,6 6,4 6,6" or "2 4 2 6 6 4 6 6" (triples for three factors).
//
// Commands: help, hint, show, undo (takes back the human's last move and the
// computer's reply), quit. The end of the input quits. An illegal move is
// refused with the reason ("heap 3 has only 2 tokens", "coin 5 is tails: the
// rightmost coin turned must go from heads to tails").
//
// The computer (Opponent) plays a winning move whenever one exists, chosen at
// random among them with math/rand/v2 seeded by Options.Seed, so that a seed
// reproduces a game. From a P-position it plays to make the game last: in
// Nim, seed 000's advice (take one token from a heap whose lowest set bit is
// as low as possible); in the other games, the move after which the
// opponent's winning replies leave the largest position (Game.Size), then
// the one leaving the largest position. Level Beginner plays at random two
// moves in five, so that a beginner can win.
//
// Under misère play outcomes are solved on the whole game by the generic
// solver (package game), remembered between moves; Nim uses its misère rule.
// Hints show the normal-play Grundy values of the parts only under normal
// play, where they decide the game.
//
// Work is bounded as in job files (Limits: positions, memory, a context
// that Ctrl-C cancels): a start whose tables or solved positions pass the
// limits is refused by Check before the first move, with the limit named
// (ErrTooLarge, IsRefusal). Nothing lists every move of a huge position:
// Wythoff's winning moves come from the Beatty pairs (at most three), and
// the computer's random and prolonging moves in Nim (and any rule that
// takes tokens from one heap) and Wythoff's game are drawn without a list,
// so Nim's heaps of 2^31 and Wythoff's of 2^40 play in kilobytes. A hint the
// limits refuse is said so and the game goes on. A typed minus sign ("-1")
// is refused, never read as a dash between numbers.
//
// A Record is the game as played; WriteJob writes it as a job file with
// `record:` and `show: [record]`, whose analysis marks each mistake and the
// winning moves missed. A game defined in a Starlark file has no job form
// (its moves are a function); WriteNotebook writes its record as a Markdown
// notebook that runs the file, then analyses the positions played.
package play
