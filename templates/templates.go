package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"
)

//go:embed en.tmpl fr.tmpl handout.css page.html
var embedded embed.FS

// Langs lists the languages with a message catalogue, in sorted order.
func Langs() []string { return []string{"en", "fr"} }

// Set is the fixed text of one language: its messages, the HTML page
// skeleton and the handout stylesheet. A Set is safe for concurrent use
// once made.
type Set struct {
	lang string
	msgs *template.Template
	page string
	css  string
	// formats caches the sources Format has parsed (a heap rule's
	// Describe, run once per section).
	formats sync.Map // string → *template.Template
}

// New returns the embedded texts for lang ("en" or "fr").
func New(lang string) (*Set, error) { return Load("", lang) }

// Load returns the texts for lang, with the definitions in dir replacing
// the embedded ones: dir/LANG.tmpl may redefine any message, and
// dir/page.html and dir/handout.css replace the page skeleton and the
// stylesheet. Files missing from dir keep their embedded version; an empty
// dir means no overrides.
func Load(dir, lang string) (*Set, error) {
	if !validLang(lang) {
		return nil, fmt.Errorf("templates: unknown language %q; want one of %s", lang, strings.Join(Langs(), ", "))
	}
	base, err := embedded.ReadFile(lang + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	s := &Set{lang: lang}
	t, err := template.New(lang).Option("missingkey=error").Funcs(s.funcs()).Parse(string(base))
	if err != nil {
		return nil, fmt.Errorf("templates: embedded %s.tmpl: %w", lang, err)
	}
	s.msgs = t
	page, _ := embedded.ReadFile("page.html")
	css, _ := embedded.ReadFile("handout.css")
	s.page, s.css = string(page), string(css)
	if dir == "" {
		return s, nil
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("templates: %s is not a directory", dir)
	}
	if b, ok, err := readOptional(filepath.Join(dir, lang+".tmpl")); err != nil {
		return nil, err
	} else if ok {
		// Parsing into the same template set redefines the messages
		// the file defines and keeps all others.
		if _, err := s.msgs.New(lang + "-override").Parse(string(b)); err != nil {
			return nil, fmt.Errorf("templates: %s: %w", filepath.Join(dir, lang+".tmpl"), err)
		}
	}
	if b, ok, err := readOptional(filepath.Join(dir, "page.html")); err != nil {
		return nil, err
	} else if ok {
		s.page = string(b)
	}
	if b, ok, err := readOptional(filepath.Join(dir, "handout.css")); err != nil {
		return nil, err
	} else if ok {
		s.css = string(b)
	}
	return s, nil
}

func readOptional(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("templates: %w", err)
	}
	return b, true, nil
}

func validLang(lang string) bool { return slices.Contains(Langs(), lang) }

// Lang returns the set's language.
func (s *Set) Lang() string { return s.lang }

// Text executes the message key with data and returns it with surrounding
// white space removed. A missing key or a failing template is an error.
func (s *Set) Text(key string, data any) (string, error) {
	t := s.msgs.Lookup(key)
	if t == nil {
		return "", fmt.Errorf("templates: %s: no message %q", s.lang, key)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", s.lang, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// Has reports whether the message key is defined.
func (s *Set) Has(key string) bool { return s.msgs.Lookup(key) != nil }

// Keys returns the names of all messages, sorted.
func (s *Set) Keys() []string {
	var keys []string
	for _, t := range s.msgs.Templates() {
		name := t.Name()
		if name == s.lang || strings.HasSuffix(name, "-override") {
			continue
		}
		keys = append(keys, name)
	}
	sort.Strings(keys)
	return keys
}

// Page returns the HTML page skeleton, an html/template source that the
// HTML renderer executes with the title, language, stylesheet and body.
func (s *Set) Page() string { return s.page }

// CSS returns the handout stylesheet (screen and print, A4).
func (s *Set) CSS() string { return s.css }

// Format executes src, a message that is not in the set (a heap rule's
// Describe, which its rule carries so that a new rule needs no edit here),
// with data, the set's functions and missingkey=error, and returns it
// with surrounding white space removed. Parsed sources are kept, so a
// report of many sections parses each once.
func (s *Set) Format(src string, data any) (string, error) {
	t, ok := s.formats.Load(src)
	if !ok {
		p, err := template.New("format").Option("missingkey=error").Funcs(s.funcs()).Parse(src)
		if err != nil {
			return "", fmt.Errorf("templates: %s: %w", s.lang, err)
		}
		t, _ = s.formats.LoadOrStore(src, p)
	}
	var b bytes.Buffer
	if err := t.(*template.Template).Execute(&b, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", s.lang, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// funcs are the functions every message and every Format source may call:
// they take a heap rule's parameters as they are (package heap's Params),
// so that a message overriding a rule's description (game.RULE) writes
// them as the reports do.
//
//	tuple: a list of numbers as a position, (1,3,5,7)
//	set:   a list of numbers as a set, {1, 3, 4}
//	inc:   n + 1
//	name:  a game's usual name by its code (name.0.77: Kayles), "" when none
func (s *Set) funcs() template.FuncMap {
	return template.FuncMap{"tuple": Tuple[int], "set": set, "inc": inc, "name": s.name}
}

// Tuple writes numbers as a position, as the seeds do: (1,3,5,7). It is
// the messages' tuple, and the reports' way of writing positions, so that
// both read alike.
func Tuple[T ~int | ~int64](xs []T) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(int64(x), 10))
	}
	b.WriteByte(')')
	return b.String()
}

func set(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func inc(n int) int { return n + 1 }

// name returns the message name.CODE, ".77" and "0.77" alike, or "".
func (s *Set) name(code string) string {
	if strings.HasPrefix(code, ".") {
		code = "0" + code
	}
	key := "name." + code
	if !s.Has(key) {
		return ""
	}
	out, err := s.Text(key, nil)
	if err != nil {
		return ""
	}
	return out
}
