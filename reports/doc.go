// Package reports turns the results of a nimbook job (explore/job.Report)
// into documents: Markdown for the terminal, a self-contained printable
// HTML handout (goldmark, inline SVG figures, A4 print stylesheet), an A4
// PDF made in pure Go (fpdf, embedded DejaVu fonts, figures as PNG), a
// standalone LaTeX article for papers (LaTeX, SurveyLaTeX, NotebookLaTeX:
// pdflatex, booktabs, figures as PDF files beside it, see latex.go), an
// executed Jupyter notebook (nbformat 4.5), the stable JSON form of
// SPEC.md, and export files for other tools (CSV, OEIS b-files, DOT).
//
// Each section cites its source (the job file's source key) below its
// first table. Value sequences are compared with a small offline table of
// OEIS sequences (OEIS): the report names the one it matches, or says at
// which n it parts from one it follows for at least eight terms.
//
// All renderers share one document model built from the results, so the
// forms say the same thing; the words come from package templates (English
// or French, overridable from a directory) and the numbers never depend on
// the language. A heap game is described by its rule (explore/heap's
// Rule.Describe, in the report's language, or its Text line without one),
// so a rule registered later reads well with no edit here; a message
// game.RULE in the templates rewords it. P-positions are marked without colour (bold values, ×
// marks on figures) so that handouts survive black-and-white printing.
// Long sequences wrap in rows of 10 (or Options.Wrap) labelled by their
// range of n, as in the source documents; tables and lists past the
// Options limits are cut with a note that says so, never silently.
//
// On paper (the PDF, and the HTML through its print stylesheet) sections
// follow one another and what a reader needs together is kept on one
// page where it fits (see partsOf): a heading with what it heads, a
// sentence with its table, a table or figure with its notes; a figure's
// caption names its section's game and cites its source.
//
// Notebook cells display through the same renderers: Bundler turns a
// cell's result into a Jupyter MIME bundle, and NotebookMarkdown,
// NotebookHTML and NotebookPDF print an executed notebook as a report.
//
// Output is deterministic: no dates unless Options.Date is set, no map
// iteration, and gonum/plot's SVG is byte-stable. Renderers write as they
// go, a section at a time (JSON a value at a time), so that a long result
// costs what its document shows; Options.MaxMemory refuses, from an
// estimate and before writing, a section (or a whole PDF) that would need
// more.
//
// # The JSON form
//
// JSON writes one object, indented by two spaces, keys in a fixed order:
//
//	{
//	  "format": "nimbook/1",
//	  "title": "Octal games",
//	  "sections": [
//	    {
//	      "title": "Dawson's Kayles",
//	      "game": {"octal": {"code": "0.07", "upto": 2000}},
//	      "results": {
//	        "values": [0, 1, 1, 2],
//	        "period": {"proven": true, "preperiod": 53, "period": 34, "checked_to": 175}
//	      }
//	    }
//	  ]
//	}
//
// "format" (JSONFormat) names this form; a later form that changes the
// meaning of a key, or drops one, gets a new name, while new keys may
// appear in any form. "game" is the section's game as its job file gives
// it, with defaults written out (job.Section.GameJSON): one key, the
// family (a heap rule registered in explore/heap, such as octal, or
// wythoff, coins, product, or nimbers for a table of nimbers), holding
// the family's parameters
// ("play" only for misère play, "position" only when one is analysed). A
// section that is not from a job file (a notebook's game given by its
// moves) has no "game". Sections are in the job file's order, a section
// whose game has a parameter across several values (r: "1..9") giving
// one per value, titled with it, that the other forms print as one
// table (job.Across); "results"
// holds one key per analysis asked for, under SPEC.md's names: values,
// table, weights, p_positions, period, rare, row_periods, outcome, moves,
// code, distribution, steiner, automorphisms, record, graph. A period
// carries all of proven, preperiod, period and checked_to when one is
// found ("preperiod": 0 included), and proven and checked_to alone when
// none is.
//
// Integers are JSON numbers, written exactly. A reader in JavaScript, whose
// numbers are exact up to 2^53 only, must take care with the few that can
// pass it: the counts of p_positions ("of" is 2^n for n coins) and of code
// words for more than 53 coins, and values and table entries of games
// whose Grundy values are large 64-bit nimbers (nim-products of tartan
// games, nimbers tables past 2^53); read those with a big-integer parser
// (BigInt, json-bigint). Group orders (automorphisms) overflow 64 bits and
// are decimal strings.
package reports
